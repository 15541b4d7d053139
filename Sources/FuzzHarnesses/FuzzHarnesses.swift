// `import FuzzHarnesses` brings every byte-level target: the fuzz target type (FuzzCore) and the selection, the
// encoding and the differential targets, each a module of its own so that its fuzz binary links it alone.
@_exported import DifferentialFuzzTargets
@_exported import EncodingFuzzTargets
@_exported import FuzzCore
@_exported import SelectionFuzzTargets
