import Synchronization

/// The output paths of one `subfix fix` run, so that two inputs never write the same file: the outputs of
/// subtitle files are known before the run starts, a media file's sidecars only once it has been opened.
final class FixClaims: Sendable {
    /// Who wrote an output first.
    enum Owner: Equatable, Sendable {
        /// A subtitle file of the run, fixed as a file of its own.
        case file(String)
        /// A media file of the run, for one of its sidecars.
        case media(String)
    }

    private let owners: Mutex<[String: Owner]>

    /// Claims made before the run: each subtitle file's output (for `--in-place`, the file itself).
    init(files: [String: String]) {
        owners = Mutex(files.mapValues(Owner.file))
    }

    /// Claims `output` for a sidecar of the media file `media`; returns the earlier owner when there is one.
    func claim(_ output: String, forMedia media: String) -> Owner? {
        owners.withLock { owners in
            if let owner = owners[output] { return owner }
            owners[output] = .media(media)
            return nil
        }
    }
}
