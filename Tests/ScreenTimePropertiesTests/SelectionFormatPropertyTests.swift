import PropertyTesting
import ScreenTimeProperties
import ScreenTimeReference
import Testing
import _TestSupport

/// The storage-format properties (`SPEC.md` §1.1 … §1.3) hold for the reference and fail for the field bugs they
/// guard. These run through the JSON formats only; the catalog runs the property-list ones (which need
/// `StrictPropertyList`'s reader and writer).
@Suite struct SelectionFormatPropertyTests {
    static let configuration = RunConfiguration(seed: 11, iterations: 200, saveFailures: false)
    static let jsonFormats: [SelectionFormat] = [.base64JSON, .json]

    @Test func theReferenceHoldsThemOnTheJSONFormats() {
        expectPasses(ReferenceProperties.selectionFormatRoundTrip(formats: Self.jsonFormats).check(Self.configuration))
        expectPasses(ReferenceProperties.selectionDocumentIsolatesBadSelection().check(Self.configuration))
        expectPasses(ReferenceProperties.selectionJSONBase64JSONAgree().check(Self.configuration))
    }

    @Test func anEncoderDroppingIncludeEntireCategoryFailsTheRoundTrip() {
        let dropping = SelectionFormatSubject(encode: { selection, format in
            var selection = selection
            selection.includeEntireCategory = false
            return Result { () throws(SelectionEncodingError) in try selection.encoded(as: format) }
        })
        let result = ReferenceProperties.selectionFormatRoundTrip(dropping, formats: Self.jsonFormats).check(
            Self.configuration)
        #expect(result.status == .failed)
    }

    /// Field bugs 10 and 12: `[]` and `""` stored in place of the selection.
    @Test func anEncoderAnsweringAPlaceholderFailsTheRoundTrip() {
        for placeholder in [Array("[]".utf8), []] {
            let broken = SelectionFormatSubject(encode: { _, _ in .success(placeholder) })
            let result = ReferenceProperties.selectionFormatRoundTrip(broken, formats: Self.jsonFormats).check(
                Self.configuration)
            #expect(result.status == .failed)
        }
    }

    /// Field bug 9, both ways: the whole document failed, or every selection dropped.
    @Test func aDocumentReaderLosingTheOthersFailsIsolation() {
        let wiping = SelectionFormatSubject(decodeDocument: { document in
            SelectionFormatSubject.referenceDecodeDocument(document).flatMap { entries in
                let anyBad = entries.contains { if case .failure = $0.selection { true } else { false } }
                return anyBad
                    ? .failure(SelectionDecodingError(.schema, at: 0, detail: "one bad profile")) : .success(entries)
            }
        })
        #expect(
            ReferenceProperties.selectionDocumentIsolatesBadSelection(wiping).check(Self.configuration).status
                == .failed)
        let emptied = SelectionFormatSubject(decodeDocument: { document in
            SelectionFormatSubject.referenceDecodeDocument(document).map { entries in
                entries.contains { if case .failure = $0.selection { true } else { false } } ? [] : entries
            }
        })
        #expect(
            ReferenceProperties.selectionDocumentIsolatesBadSelection(emptied).check(Self.configuration).status
                == .failed)
    }

    /// Field bug 2 in `json`: a failed read answered as an empty selection.
    @Test func aJSONReaderSwallowingErrorsDisagreesWithBase64JSON() {
        let swallowing = SelectionFormatSubject(decode: { stored, format in
            let result = SelectionFormatSubject.referenceDecode(stored, format)
            guard format == .json, case .failure = result else { return result }
            return .success(FamilyActivitySelection())
        })
        #expect(
            ReferenceProperties.selectionJSONBase64JSONAgree(swallowing).check(Self.configuration).status == .failed)
    }
}
