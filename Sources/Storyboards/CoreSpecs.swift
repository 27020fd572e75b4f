public import NavigationCore

// Scenes and segues as the core's values. What needs only a scene (or a segue) and the core
// lives here; containment, references and declared custom segue classes are added by
// `SceneInstantiation`.

extension Scene {
    /// The ControllerSpec of this scene's own controller, before containment (R101, R102): id
    /// (the Storyboard ID, else the element id, suffixed by the core when taken), kind, class,
    /// title, presentation settings, origin and segue table (R97). The relationship and embed
    /// children, and the split and page settings that go with them, are the caller's.
    /// - Parameter storyboard: the name of the storyboard that holds the scene.
    public func controllerSpec(in storyboard: String) -> ControllerSpec {
        var spec = ControllerSpec(id: storyboardIdentifier ?? id, kind: kind, className: className)
        spec.appendsSuffixWhenTaken = true
        spec.title = title
        spec.configuration = spec.configuration.merging(configuration)
        spec.storyboard = StoryboardOrigin(name: storyboard, identifier: storyboardIdentifier)
        spec.segues = segues.compactMap { $0.segueSpec(in: storyboard) }
        switch kind {
        case .splitViewController:
            spec.splitStyle = splitStyle
        case .pageViewController:
            spec.pageTransitionStyle = page?.transitionStyle
            spec.spineLocation = page?.spineLocation
            spec.isDoubleSided = page?.isDoubleSided
        default:
            break
        }
        return spec
    }
}

extension Segue {
    /// This segue as the core performs it (R97, R98); nil for relationship and embed segues,
    /// which are containment made at instantiation. An unwind has no destination scene (R99:
    /// the core finds it). Custom segue declarations are the caller's to apply.
    /// - Parameter storyboard: the name of the storyboard that holds the segue.
    public func segueSpec(in storyboard: String) -> SegueSpec? {
        guard kind != .relationship, kind != .embed else { return nil }
        return SegueSpec(
            id: id, identifier: identifier, kind: kind,
            destinationScene: kind == .unwind ? nil : destination,
            destinationStoryboard: kind == .unwind ? nil : storyboard,
            modalPresentationStyle: modalPresentationStyle?.value,
            modalTransitionStyle: modalTransitionStyle?.value,
            animates: animates, popover: popoverAnchor, unwindAction: unwindAction,
            customClass: customClass)
    }
}
