// Every SubDB test file sees the shared test helpers (TemporaryDirectory) without importing them itself.
@_exported import TestSupport
