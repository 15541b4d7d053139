// `import FuzzHarnesses` brings every byte-level target: the fuzz target type (FuzzCore), the selection and the
// encoding targets (modules of their own, which their fuzz binaries link alone) and the differential target here.
@_exported import EncodingFuzzTargets
@_exported import FuzzCore
@_exported import SelectionFuzzTargets
