#pragma once
// Daml values read back from what a Scan serves (cantonlite fork): the inverse of the encodings of
// model/value_json.hpp, as far as each carries what a Value holds. Read from simdjson's DOM: a
// fork reads hundreds of megabytes of Scan's answers.
//
// Neither of Scan's encodings carries a whole value. protobuf_json has every type but no record
// label (Scan reads the ledger without them); compact_json has the labels but no type (a party,
// a text and a contract id are all strings). An update served in both encodings is read whole
// from the pair; a contract of the ACS, served in compact_json alone, is typed by its shape.

#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <simdjson.h>

#include "cantonlite/model/packed_value.hpp"
#include "cantonlite/model/value.hpp"

namespace cantonlite::seed {

// The JSON is not a value of the encoding. what() names the place as a JSON pointer into it.
class ScanValueError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// The value of `typed`, in protobuf_json ({"record":{"fields":[{"value":{"party":"…"}}]}}), with
// its record labels taken from `labelled`, the same value in compact_json (nullptr: none; then a
// record's fields are labelled by position, "_1", "_2", …, as Daml names a tuple's). Throws
// ScanValueError when `typed` is not protobuf_json. Where `labelled` is not the same value, the
// labels are positional there.
[[nodiscard]] model::Value value_from_protobuf_json(simdjson::dom::element typed,
                                                    const simdjson::dom::element* labelled);
// The same value packed, as pack() would write it (value_from_protobuf_json unpacks it).
[[nodiscard]] model::PackedValue packed_from_protobuf_json(simdjson::dom::element typed,
                                                           const simdjson::dom::element* labelled);

// The value of `compact`, in compact_json (codegen), each scalar typed by its shape: a string is
// a party, a contract id, a Numeric, an Int64, a Time or a Date when it reads as one and that
// type writes it back the same, else a Text; an array of [key, value] pairs is a GenMap, another
// array a List; {"tag","value"} a variant; another object a record; null a None. Every compact
// encoding writes the value back as it came; protobuf_json may name another type (an Int64 for a
// Text of digits). Throws ScanValueError for a value nested too deep.
[[nodiscard]] model::Value value_from_compact_json(simdjson::dom::element compact);

// The record labels of values, learnt from values read whole, by where each record sits: the
// value's root (its template or choice, and which value), then each step down (a field's index, a
// variant's constructor, an Optional's value, a List's element, a map's key or value). A Daml-LF
// record at one place of one template's value is always of one type, so once learnt, values of
// that place read in protobuf_json alone get their labels back.
class RecordLabels {
  public:
    // Remembers the labels of every record of `v`, a value at `root`.
    void learn(const model::Value& v, const std::string& root);
    // The value of `typed` (protobuf_json, read without labels) at `root`, packed, every record
    // labelled as learnt for its place; nullopt when one's labels are not known. Throws
    // ScanValueError as value_from_protobuf_json does.
    [[nodiscard]] std::optional<model::PackedValue> packed(simdjson::dom::element typed,
                                                           const std::string& root) const;
    // Whether every record of `typed` (protobuf_json) at `root` has labels learnt.
    [[nodiscard]] bool known(simdjson::dom::element typed, const std::string& root) const;
    // Puts the fields of every record of `v` (labelled, in some other order: Scan's bulk objects
    // sort keys) in the order learnt for its place, where its labels are the ones learnt; records
    // below one whose order is not known keep theirs.
    void reorder(model::Value& v, const std::string& root) const;

  private:
    std::unordered_map<std::string, std::vector<std::string>> labels_;
};

}  // namespace cantonlite::seed
