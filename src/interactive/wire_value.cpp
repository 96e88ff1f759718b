#include "cantonlite/interactive/wire_value.hpp"

#include <string>

namespace cantonlite::interactive {
namespace {

using model::Value;
using Kind = model::Value::Kind;

// Daml-LF's value nesting limit.
constexpr int max_value_depth = 100;

void fill(wire::Value& out, const Value& in) {
    switch (in.kind) {
        case Kind::unit:
            out.mutable_unit();
            return;
        case Kind::boolean:
            out.set_bool_(in.number != 0);
            return;
        case Kind::int64:
            out.set_int64(in.number);
            return;
        case Kind::numeric:
            out.set_numeric(in.decimal.to_scaled_string());
            return;
        case Kind::text:
            out.set_text(in.text);
            return;
        case Kind::party:
            out.set_party(in.text);
            return;
        case Kind::contract_id:
            out.set_contract_id(in.text);
            return;
        case Kind::timestamp:
            out.set_timestamp(in.number);
            return;
        case Kind::date:
            out.set_date(static_cast<std::int32_t>(in.number));
            return;
        case Kind::optional: {
            auto* o = out.mutable_optional();
            if (!in.items.empty()) fill(*o->mutable_value(), in.items.front());
            return;
        }
        case Kind::list: {
            auto* l = out.mutable_list();
            for (const Value& e : in.items) fill(*l->add_elements(), e);
            return;
        }
        case Kind::text_map: {
            auto* m = out.mutable_text_map();
            for (std::size_t i = 0; i < in.items.size(); ++i) {
                auto* e = m->add_entries();
                e->set_key(in.labels.at(i));
                fill(*e->mutable_value(), in.items[i]);
            }
            return;
        }
        case Kind::gen_map: {
            auto* m = out.mutable_gen_map();
            for (std::size_t i = 0; i + 1 < in.items.size(); i += 2) {
                auto* e = m->add_entries();
                fill(*e->mutable_key(), in.items[i]);
                fill(*e->mutable_value(), in.items[i + 1]);
            }
            return;
        }
        case Kind::record: {
            auto* r = out.mutable_record();
            for (std::size_t i = 0; i < in.items.size(); ++i) {
                auto* f = r->add_fields();
                f->set_label(in.labels.at(i));
                fill(*f->mutable_value(), in.items[i]);
            }
            return;
        }
        case Kind::variant: {
            auto* v = out.mutable_variant();
            v->set_constructor(in.text);
            fill(*v->mutable_value(), in.items.empty() ? Value::unit() : in.items.front());
            return;
        }
        case Kind::enumeration:
            out.mutable_enum_()->set_constructor(in.text);
            return;
    }
}

Value read(const wire::Value& in, int depth) {
    if (depth > max_value_depth)
        throw WireValueError("a value nests deeper than " + std::to_string(max_value_depth));
    using Sum = wire::Value::SumCase;
    switch (in.sum_case()) {
        case Sum::kUnit:
            return Value::unit();
        case Sum::kBool:
            return Value::boolean(in.bool_());
        case Sum::kInt64:
            return Value::int64(in.int64());
        case Sum::kNumeric: {
            const auto d = model::Decimal::parse(in.numeric());
            // Only Numeric 10 in its canonical text: any other reading would hash differently.
            if (!d || d->to_scaled_string() != in.numeric())
                throw WireValueError("numeric " + in.numeric() + " is no canonical Numeric 10");
            return Value::numeric(*d);
        }
        case Sum::kTimestamp:
            return Value::timestamp(model::Timestamp{in.timestamp()});
        case Sum::kDate:
            return Value::date(in.date());
        case Sum::kParty:
            return Value::party(in.party());
        case Sum::kText:
            return Value::text_value(in.text());
        case Sum::kContractId:
            return Value::contract_id(in.contract_id());
        case Sum::kOptional:
            if (!in.optional().has_value()) return Value::none();
            return Value::some(read(in.optional().value(), depth + 1));
        case Sum::kList: {
            std::vector<Value> items;
            items.reserve(static_cast<std::size_t>(in.list().elements_size()));
            for (const auto& e : in.list().elements()) items.push_back(read(e, depth + 1));
            return Value::list(std::move(items));
        }
        case Sum::kTextMap: {
            std::vector<std::pair<std::string, Value>> entries;
            for (const auto& e : in.text_map().entries())
                entries.emplace_back(e.key(), read(e.value(), depth + 1));
            return Value::text_map(std::move(entries));
        }
        case Sum::kGenMap: {
            std::vector<std::pair<Value, Value>> entries;
            for (const auto& e : in.gen_map().entries())
                entries.emplace_back(read(e.key(), depth + 1), read(e.value(), depth + 1));
            return Value::gen_map(std::move(entries));
        }
        case Sum::kRecord: {
            std::vector<std::pair<std::string, Value>> fields;
            for (const auto& f : in.record().fields())
                fields.emplace_back(f.label(), read(f.value(), depth + 1));
            return Value::record(std::move(fields));
        }
        case Sum::kVariant:
            return Value::variant(in.variant().constructor(),
                                  read(in.variant().value(), depth + 1));
        case Sum::kEnum:
            return Value::enumeration(in.enum_().constructor());
        case Sum::SUM_NOT_SET:
            break;
    }
    throw WireValueError("a value without its sum");
}

}  // namespace

wire::Value to_wire(const model::Value& value) {
    wire::Value out;
    fill(out, value);
    return out;
}

model::Value from_wire(const wire::Value& value) {
    return read(value, 0);
}

}  // namespace cantonlite::interactive
