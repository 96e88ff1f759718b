#include "cantonlite/model/value_json.hpp"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "cantonlite/model/packed_reader.hpp"
#include "cantonlite/util/json_escape.hpp"

namespace cantonlite::model {
namespace {

using Kind = Value::Kind;
using packed::Reader;
using util::append_json_string;

// How a compact encoding writes an Optional whose payload is itself an Optional. A Value carries
// no type, so a None is always taken to be of type `Optional a` with `a` not an Optional: it is
// written null even where the type says `Optional (Optional a)`.
enum class NestedOptionals {
    // The Daml-LF JSON spec (Java codegen JsonLfEncoders.optionalNested, ApiCodecCompressed):
    // Some None -> [], Some (Some x) -> [x], Some (Some None) -> [[]].
    lf_spec,
    // Canton's transcode JsonCodec: every nested level is an array:
    // Some None -> [[]], Some (Some x) -> [[x]], Some (Some None) -> [[[]]].
    every_level,
};

// What tells the three compact encodings apart; everything else they write alike.
struct CompactStyle {
    std::string (*numeric)(Decimal);
    std::string (*timestamp)(Timestamp);
    NestedOptionals nested_optionals = NestedOptionals::lf_spec;
    bool drop_trailing_nones = false;  // record fields at the end whose value is None
};

// Java's BigDecimal.toString of a Numeric 10, which keeps its scale of 10: plain notation unless
// the adjusted exponent is below -6, i.e. magnitudes under 10^-6, zero included:
// "100.0000000000", "0.0000190259", "0E-10", "1E-10", "-1.5E-9".
std::string java_big_decimal_string(Decimal d) {
    const Int128 units = d.units();
    const Int128 magnitude = units < 0 ? -units : units;
    if (magnitude >= 10'000) return d.to_scaled_string();
    const std::string coefficient = std::to_string(static_cast<int>(magnitude));
    const auto adjusted = static_cast<int>(coefficient.size()) - 11;
    std::string out = units < 0 ? "-" : "";
    out += coefficient.front();
    if (coefficient.size() > 1) out += "." + coefficient.substr(1);
    return out + "E" + std::to_string(adjusted);
}

std::string scaled_numeric(Decimal d) {
    return d.to_scaled_string();
}

std::string compact_numeric(Decimal d) {
    return d.to_compact_string();
}

constexpr CompactStyle codegen_style{.numeric = java_big_decimal_string,
                                     .timestamp = format_instant};
constexpr CompactStyle api_compressed_style{.numeric = compact_numeric,
                                            .timestamp = format_instant};
constexpr CompactStyle ledger_style{.numeric = scaled_numeric,
                                    .timestamp = format_offset_date_time,
                                    .nested_optionals = NestedOptionals::every_level,
                                    .drop_trailing_nones = true};

// Writes the compact encodings (codegen, api_compressed, ledger) of packed values.
class CompactWriter {
  public:
    CompactWriter(std::string& out, const CompactStyle& style) : out_(out), style_(style) {}

    void value(Reader& in) {
        const Kind kind = in.kind();
        switch (kind) {
            case Kind::unit:
                out_ += "{}";
                return;
            case Kind::boolean:
                out_ += in.byte() != 0 ? "true" : "false";
                return;
            case Kind::int64:
                quoted(std::to_string(in.integer()));
                return;
            case Kind::numeric:
                quoted(style_.numeric(in.decimal()));
                return;
            case Kind::text:
            case Kind::enumeration:
                append_json_string(out_, in.text());
                return;
            case Kind::party:
            case Kind::contract_id:
                append_json_string(out_, in.name().view());
                return;
            case Kind::timestamp:
                quoted(style_.timestamp(Timestamp{in.integer()}));
                return;
            case Kind::date:
                quoted(format_date(in.integer()));
                return;
            case Kind::optional:
                optional(in);
                return;
            case Kind::list:
                list(in, in.count());
                return;
            case Kind::gen_map:
                gen_map(in);
                return;
            case Kind::text_map:
            case Kind::record:
                object(in, kind);
                return;
            case Kind::variant:
                out_ += "{\"tag\":";
                append_json_string(out_, in.text());
                out_ += ",\"value\":";
                value(in);
                out_ += '}';
                return;
        }
    }

  private:
    void quoted(const std::string& s) { append_json_string(out_, s); }

    void list(Reader& in, std::size_t count) {
        out_ += '[';
        for (std::size_t i = 0; i < count; ++i) {
            if (i > 0) out_ += ',';
            value(in);
        }
        out_ += ']';
    }

    // [[k, v], ...]
    void gen_map(Reader& in) {
        const std::size_t pairs = in.count();
        out_ += '[';
        for (std::size_t i = 0; i < pairs; ++i) {
            if (i > 0) out_ += ',';
            list(in, 2);
        }
        out_ += ']';
    }

    // After the optional tag: None is null and Some x is x, unless x is an Optional itself (see
    // NestedOptionals).
    void optional(Reader& in) {
        if (in.byte() == 0) {
            out_ += "null";
            return;
        }
        if (!in.at_optional()) {
            value(in);
            return;
        }
        if (style_.nested_optionals == NestedOptionals::every_level) {
            out_ += '[';
            every_level(in);
            out_ += ']';
            return;
        }
        if (in.at_none()) {  // Some None
            in.skip();
            out_ += "[]";
            return;
        }
        out_ += '[';
        value(in);
        out_ += ']';
    }

    // One level of a nested Optional in the every_level form: None [], Some x [x'], where x' is
    // the same form of x when x is an Optional too.
    void every_level(Reader& in) {
        (void)in.kind();
        out_ += '[';
        if (in.byte() != 0) {
            if (in.at_optional()) {
                every_level(in);
            } else {
                value(in);
            }
        }
        out_ += ']';
    }

    // Text maps and records: an object in label order; records in the ledger style without their
    // trailing Nones.
    void object(Reader& in, Kind kind) {
        const std::size_t count = in.count();
        std::size_t written = count;
        const char* start = in.position();
        if (kind == Kind::record && style_.drop_trailing_nones) {
            written = 0;
            for (std::size_t i = 0; i < count; ++i) {
                (void)in.varint();
                if (!in.at_none()) written = i + 1;
                in.skip();
            }
            in.seek(start);
        }
        out_ += '{';
        for (std::size_t i = 0; i < count; ++i) {
            const std::string_view label = in.name().view();  // a record's label, a map's key
            if (i >= written) {
                in.skip();
                continue;
            }
            if (i > 0) out_ += ',';
            append_json_string(out_, label);
            out_ += ':';
            value(in);
        }
        out_ += '}';
    }

    std::string& out_;
    const CompactStyle& style_;
};

// Writes the protobuf JSON encoding of packed values.
class ProtobufWriter {
  public:
    explicit ProtobufWriter(std::string& out) : out_(out) {}

    void value(Reader& in) {
        switch (in.kind()) {
            case Kind::unit:
                out_ += "{\"unit\":{}}";
                return;
            case Kind::boolean:
                out_ += in.byte() != 0 ? "{\"bool\":true}" : "{\"bool\":false}";
                return;
            case Kind::int64:
                tagged_string("int64", std::to_string(in.integer()));
                return;
            case Kind::numeric:
                tagged_string("numeric", in.decimal().to_scaled_string());
                return;
            case Kind::text:
                tagged_string("text", in.text());
                return;
            case Kind::party:
                tagged_string("party", in.name().view());
                return;
            case Kind::contract_id:
                tagged_string("contractId", in.name().view());
                return;
            case Kind::timestamp:
                tagged_string("timestamp", std::to_string(in.integer()));
                return;
            case Kind::date:
                out_ += "{\"date\":" + std::to_string(in.integer()) + "}";
                return;
            case Kind::optional:
                out_ += "{\"optional\":{";
                if (in.byte() != 0) {
                    out_ += "\"value\":";
                    value(in);
                }
                out_ += "}}";
                return;
            case Kind::list:
                repeated("list", "elements", in.count(), [&] { value(in); });
                return;
            case Kind::text_map:
                repeated("textMap", "entries", in.count(), [&] {
                    const std::string_view key = in.name().view();
                    out_ += '{';
                    if (!key.empty()) {  // proto3 JSON leaves out a string key that is ""
                        out_ += "\"key\":";
                        append_json_string(out_, key);
                        out_ += ',';
                    }
                    out_ += "\"value\":";
                    value(in);
                    out_ += '}';
                });
                return;
            case Kind::gen_map:
                repeated("genMap", "entries", in.count(), [&] {
                    out_ += "{\"key\":";
                    value(in);
                    out_ += ",\"value\":";
                    value(in);
                    out_ += '}';
                });
                return;
            case Kind::record:
                repeated("record", "fields", in.count(), [&] {
                    (void)in.varint();  // the label: this encoding has none
                    out_ += "{\"value\":";
                    value(in);
                    out_ += '}';
                });
                return;
            case Kind::variant:
                out_ += "{\"variant\":{\"constructor\":";
                append_json_string(out_, in.text());
                out_ += ",\"value\":";
                value(in);
                out_ += "}}";
                return;
            case Kind::enumeration:
                out_ += "{\"enum\":{\"constructor\":";
                append_json_string(out_, in.text());
                out_ += "}}";
                return;
        }
    }

  private:
    void tagged_string(const char* tag, std::string_view s) {
        out_ += "{\"";
        out_ += tag;
        out_ += "\":";
        append_json_string(out_, s);
        out_ += '}';
    }

    // {"tag":{"key":[element,...]}}; proto3 JSON leaves a repeated field out when it is empty:
    // {"tag":{}}.
    template <typename Element>
    void repeated(const char* tag, const char* key, std::size_t count, Element element) {
        out_ += "{\"";
        out_ += tag;
        out_ += "\":{";
        if (count > 0) {
            out_ += '"';
            out_ += key;
            out_ += "\":[";
            for (std::size_t i = 0; i < count; ++i) {
                if (i > 0) out_ += ',';
                element();
            }
            out_ += ']';
        }
        out_ += "}}";
    }

    std::string& out_;
};

}  // namespace

void append_value_json(std::string& out, const PackedValue& v, ValueEncoding encoding) {
    Reader in(v.bytes());
    switch (encoding) {
        case ValueEncoding::codegen:
            CompactWriter(out, codegen_style).value(in);
            return;
        case ValueEncoding::api_compressed:
            CompactWriter(out, api_compressed_style).value(in);
            return;
        case ValueEncoding::ledger:
            CompactWriter(out, ledger_style).value(in);
            return;
        case ValueEncoding::protobuf:
            ProtobufWriter(out).value(in);
            return;
    }
}

std::string value_json(const PackedValue& v, ValueEncoding encoding) {
    std::string out;
    append_value_json(out, v, encoding);
    return out;
}

}  // namespace cantonlite::model
