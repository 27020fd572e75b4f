/// navsim's release, as `navsim --version` prints it and `GET /` reports it (Semantic Versioning).
public enum NavSimVersion {
    public static let current = "0.7.0"
}
