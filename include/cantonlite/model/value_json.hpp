#pragma once
// The four JSON encodings of Daml values that the real services write
// (../shared/docs/reference/splice-behavior.md §4.1, canton-ledger-behavior.md §6).

#include <string>

#include "cantonlite/model/packed_value.hpp"

namespace cantonlite::model {

enum class ValueEncoding {
    // Compact JSON, Java-codegen flavour: Scan's CreatedEvent.create_arguments (holdings state).
    // Records as objects in declaration order; Int64 and Numeric as strings, Numeric with all ten
    // decimals ("100.0000000000"); Time as Instant.toString; Date "yyyy-mm-dd"; Optional None
    // null, Some x x (Some None: []); List array; GenMap array of [k, v]; TextMap object; Variant
    // {"tag","value"}; Enum "Ctor"; Unit {}.
    codegen,
    // Compact JSON, ApiCodecCompressed flavour: the payload of Splice `Contract`s (ops 4, 7, 8,
    // 10). As codegen except Numeric with trailing zeros stripped ("100.0", "0.0000190259").
    api_compressed,
    // protobuf JSON of the Ledger API Value message, without labels: import updates (op 2).
    // {"record":{"fields":[{"value":V},…]}}, {"party":…}, {"text":…}, {"contractId":…},
    // {"numeric":"100.0000000000"}, {"int64":"12"}, {"timestamp":"<micros>"}, {"date":<days>},
    // {"bool":b}, {"unit":{}}, {"optional":{}} / {"optional":{"value":V}}, {"list":{"elements":
    // […]}} ({"list":{}} when empty), {"genMap":{"entries":[{"key":K,"value":V}]}}, {"textMap":
    // {"entries":[{"key":k,"value":V}]}}, {"variant":{"constructor":C,"value":V}},
    // {"enum":{"constructor":C}}. Empty repeated fields are omitted, as proto3 JSON omits defaults.
    protobuf,
    // The JSON Ledger API v2 encoding: createArgument, choiceArgument, exerciseResult (op 1). As
    // codegen except: Numeric full scale; Time with the fewest fraction digits (ISO_DATE_TIME);
    // trailing record fields whose value is None are dropped; every level of a nested Optional is
    // an array (transcode JsonCodec: Some None [[]], Some (Some x) [[x]]).
    //
    // A Value carries no type, so in every compact encoding a None is written as the None of an
    // `Optional a` whose `a` is not an Optional: null (Canton would write [] for the None of an
    // `Optional (Optional a)` and keep it as a trailing field).
    ledger,
};

// Appends the compact JSON text of `v` in `encoding` (no spaces, keys in declaration order),
// straight from the packed bytes: no document is built.
void append_value_json(std::string& out, const PackedValue& v, ValueEncoding encoding);
[[nodiscard]] std::string value_json(const PackedValue& v, ValueEncoding encoding);

}  // namespace cantonlite::model
