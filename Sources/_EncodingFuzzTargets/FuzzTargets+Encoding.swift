@_exported import _FuzzCore  // the shims of `url`, `template` and `deeplink` import only this module

extension FuzzTargets {
    /// The targets of this module, in `stc fuzz list` order.
    public static let encodingTargets = [url, template, deeplink]
}
