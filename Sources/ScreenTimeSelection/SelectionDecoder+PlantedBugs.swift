#if STC_PLANTED_BUGS
    import StrictJSON

    // What the planted selection bugs answer (StrictJSON's PlantedBug; bug-finding benchmark builds only).
    extension SelectionDecoder {
        /// An empty selection: what a swallowed decoding error turns every malformed string into.
        static let emptyReport: Report = {
            let json = Base64.decode(Array(FamilyActivitySelection().canonicalBase64.utf8)) ?? []
            guard let report = try? decodeJSON(json) else {
                fatalError("the empty selection does not decode")
            }
            return report
        }()

        static let emptyCanonicalForm = CanonicalForm(
            base64: FamilyActivitySelection().canonicalBase64, applicationCount: 0, categoryCount: 0,
            webDomainCount: 0, includeEntireCategory: false)
    }
#endif
