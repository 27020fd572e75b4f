import Testing
@testable import StoryboardTools

@Suite struct LintRuleTests {
    @Test func ruleIdsAreUnique() {
        #expect(Set(LintRule.all.map(\.id)).count == LintRule.all.count)
    }
}
