// POST /v2/updates/transaction-by-offset (canton-ledger-behavior.md §1 for the order of steps).
#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "cantonlite/areas/ledger/ledger_handlers.hpp"
#include "cantonlite/areas/ledger/transaction_json.hpp"
#include "cantonlite/areas/ledger/transaction_request.hpp"
#include "cantonlite/http/api_error.hpp"
#include "cantonlite/model/interfaces.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;

constexpr std::string_view invalid_arguments = "The submitted request has invalid arguments: ";

[[noreturn]] void invalid_argument(const std::string& what) {
    throw ApiError(ErrorKind::invalid_argument, "INVALID_ARGUMENT",
                   std::string(invalid_arguments) + what);
}

[[noreturn]] void missing_field(const std::string& field) {
    throw ApiError(ErrorKind::invalid_argument, "MISSING_FIELD",
                   "The submitted command is missing a mandatory field: " + field,
                   {{"field_name", field}});
}

// requestingParties vs transactionFormat, in the JSON layer (§3.1).
TransactionFormat select_format(const TransactionByOffsetRequest& req) {
    if (req.transaction_format && !req.requesting_parties.empty()) {
        invalid_argument(
            "Both transaction_format and requesting_parties are set. Please use either backwards "
            "compatible arguments (requesting_parties) or transaction_format but not both.");
    }
    if (req.transaction_format) return *req.transaction_format;
    if (req.requesting_parties.empty()) {
        invalid_argument(
            "Either transaction_format or requesting_parties is required. Please use either "
            "backwards "
            "compatible arguments (requesting_parties) or transaction_format.");
    }
    EventFormat events{.verbose = true};
    for (const std::string& p : req.requesting_parties) events.filters_by_party[p] = Filters{};
    return TransactionFormat{.event_format = std::move(events),
                             .transaction_shape = TransactionShape::acs_delta};
}

// A Daml-LF Party string (IdString.scala): non-empty, at most 255 of [A-Za-z0-9:-_ ].
void check_lf_party(const std::string& p) {
    if (p.empty()) invalid_argument("Daml-LF Party is empty");
    if (p.size() > 255) invalid_argument("Daml-LF Party is too long (max: 255)");
    for (const char c : p) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == ':' || c == '-' || c == '_' || c == ' ';
        if (!ok) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(c));
            invalid_argument(std::string("non expected character ") + hex + " in Daml-LF Party \"" +
                             p + "\"");
        }
    }
}

void check_filters(const Filters& filters) {
    for (const CumulativeFilter& f : filters.cumulative) {
        if (f.kind == CumulativeFilter::Kind::template_filter && !f.identifier)
            missing_field("templateId");
        if (f.kind == CumulativeFilter::Kind::interface_filter && !f.identifier)
            missing_field("interfaceId");
        if (f.identifier && !f.identifier->package.starts_with("#")) {
            throw ApiError(ErrorKind::invalid_argument, "INVALID_FIELD",
                           "The submitted command has a field with invalid value: Invalid field "
                           "packageId: Received an "
                           "identifier with package ID " +
                               f.identifier->package + ", but expected a package name.",
                           {{"field_name", "packageId"}});
        }
    }
}

// The Ledger API's validation, in its order (§3.2).
const EventFormat& validate(std::int64_t offset, const TransactionFormat& format) {
    if (offset <= 0) {
        // ParticipantOffsetValidator: a ContextualizedDamlError, without a definite answer.
        throw ApiError(ErrorKind::invalid_argument, "NON_POSITIVE_OFFSET",
                       "Offset " + std::to_string(offset) +
                           " in offset is not a positive integer: the offset has to be a positive "
                           "integer (>0)")
            .without_definite_answer();
    }
    if (format.transaction_shape == TransactionShape::unspecified)
        missing_field("transaction_shape");
    if (!format.event_format) missing_field("event_format");
    const EventFormat& events = *format.event_format;
    if (events.filters_by_party.empty() && !events.filters_for_any_party) {
        invalid_argument("filtersByParty and filtersForAnyParty cannot be empty simultaneously");
    }
    for (const auto& [party, filters] : events.filters_by_party) {
        check_lf_party(party);
        check_filters(filters);
    }
    if (events.filters_for_any_party) check_filters(*events.filters_for_any_party);
    return events;
}

// checkUnknownIdentifiers: package names and templates the participant does not know (404).
void check_known(const store::LedgerStore& store, const EventFormat& events) {
    std::vector<const CumulativeFilter*> all;
    for (const auto& [_, filters] : events.filters_by_party) {
        for (const auto& f : filters.cumulative) all.push_back(&f);
    }
    if (events.filters_for_any_party) {
        for (const auto& f : events.filters_for_any_party->cumulative) all.push_back(&f);
    }
    for (const CumulativeFilter* f : all) {
        if (!f->identifier) continue;
        const std::string package = f->identifier->package.substr(1);
        const std::string qualified = f->identifier->module_name + ":" + f->identifier->entity_name;
        if (!store.network().package_ids.contains(package)) {
            throw ApiError(
                ErrorKind::not_found, "PACKAGE_NAMES_NOT_FOUND",
                "The following package names do not match upgradable packages uploaded on this "
                "participant: [" +
                    package + "].");
        }
        if (f->kind == CumulativeFilter::Kind::interface_filter) {
            if (model::is_known_interface(package, f->identifier->module_name,
                                          f->identifier->entity_name))
                continue;
            throw ApiError(
                ErrorKind::not_found, "NO_INTERFACE_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME",
                "The following package-name/interface qualified-name pairs do not reference any "
                "interface-id uploaded on this participant: [(" +
                    package + "," + qualified + ")].");
        }
        if (!store.knows_template(package, qualified)) {
            throw ApiError(
                ErrorKind::not_found, "NO_TEMPLATES_FOR_PACKAGE_NAME_AND_QUALIFIED_NAME",
                "The following package-name/template qualified-name pairs do not reference any "
                "template-id uploaded on this participant: [(" +
                    package + "," + qualified + ")].");
        }
    }
}

// What matching filters ask to be rendered of an event.
struct Projection {
    bool blob = false;
    std::vector<InterfaceView> interfaces;  // with includeInterfaceView, one per interface

    void add_interface(const InterfaceView& v) {
        const auto same = [&](const InterfaceView& o) { return o.instance == v.instance; };
        if (std::none_of(interfaces.begin(), interfaces.end(), same)) interfaces.push_back(v);
    }
    void add(const Projection& other) {
        blob = blob || other.blob;
        for (const InterfaceView& v : other.interfaces) add_interface(v);
    }
};

// `p`, made a match if it was none, now asking for the blob when `blob` is.
Projection& hit(std::optional<Projection>& p, bool blob) {
    if (!p) p.emplace();
    p->blob = p->blob || blob;
    return *p;
}

// One party's filter, merged from its cumulative entries (FV validateFilters; an interface filter
// stands for the templates implementing the interface, EventProjectionProperties).
struct PartyFilter {
    struct ByInterface {
        InterfaceView view;  // the instance and its interface id, resolved once per request
        bool include_view;
        bool blob;
    };
    bool wildcard = false;
    bool wildcard_blob = false;
    std::map<std::string, bool, std::less<>>
        templates;  // "<package name>:<Module>:<Entity>" -> blob
    std::vector<ByInterface> interfaces;

    [[nodiscard]] std::optional<Projection> match(const model::TemplateId& t) const {
        std::optional<Projection> out;
        if (wildcard) hit(out, wildcard_blob);
        if (const auto it = templates.find(t.package_name + ":" + t.qualified_name());
            it != templates.end()) {
            hit(out, it->second);
        }
        for (const ByInterface& i : interfaces) {
            if (!i.view.instance->implemented_by(t)) continue;
            Projection& p = hit(out, i.blob);
            if (i.include_view) p.add_interface(i.view);
        }
        return out;
    }
};

PartyFilter merge(const Filters& filters, const model::Network& network) {
    PartyFilter out;
    bool only_empty = true;
    for (const CumulativeFilter& f : filters.cumulative) {
        switch (f.kind) {
            case CumulativeFilter::Kind::empty:
                break;
            case CumulativeFilter::Kind::wildcard:
                only_empty = false;
                out.wildcard = true;
                out.wildcard_blob = out.wildcard_blob || f.include_created_event_blob;
                break;
            case CumulativeFilter::Kind::template_filter: {
                only_empty = false;
                bool& blob =
                    out.templates[f.identifier->package.substr(1) + ":" +
                                  f.identifier->module_name + ":" + f.identifier->entity_name];
                blob = blob || f.include_created_event_blob;
                break;
            }
            case CumulativeFilter::Kind::interface_filter:
                only_empty = false;
                for (const model::InterfaceInstance& i : model::interface_instances()) {
                    if (i.interface_ref.names(std::string_view(f.identifier->package).substr(1),
                                              f.identifier->module_name,
                                              f.identifier->entity_name)) {
                        const model::QualifiedRef& ref = i.interface_ref;
                        const std::string id = network
                                                   .template_id(std::string(ref.package_name),
                                                                std::string(ref.module_name),
                                                                std::string(ref.entity_name))
                                                   .to_string();
                        out.interfaces.push_back({.view = {.interface_id = id, .instance = &i},
                                                  .include_view = f.include_interface_view,
                                                  .blob = f.include_created_event_blob});
                    }
                }
                break;
        }
    }
    if (only_empty) out.wildcard = true;  // no entry, or only Empty ones: a template wildcard
    return out;
}

struct Reader {
    std::map<std::string, PartyFilter, std::less<>> by_party;
    std::optional<PartyFilter> any_party;
};

bool intersects(const std::vector<std::string>& sorted_a, const Reader& r) {
    return std::any_of(sorted_a.begin(), sorted_a.end(),
                       [&](const std::string& p) { return r.by_party.contains(p); });
}

// The parties of `candidates` the reader asks for (all of them for an any-party reader).
std::vector<std::string> visible(const std::vector<std::string>& candidates, const Reader& r) {
    if (r.any_party) return candidates;
    std::vector<std::string> out;
    for (const auto& p : candidates) {
        if (r.by_party.contains(p)) out.push_back(p);
    }
    return out;
}

// Whether a filter of one of `parties` matches `t`, and what those filters ask to render.
std::optional<Projection> matches(const Reader& r, const std::vector<std::string>& parties,
                                  const model::TemplateId& t) {
    std::optional<Projection> result;
    const auto add = [&](const std::optional<Projection>& m) {
        if (m) hit(result, false).add(*m);
    };
    if (r.any_party && !parties.empty()) add(r.any_party->match(t));
    for (const auto& p : parties) {
        if (const auto it = r.by_party.find(p); it != r.by_party.end()) add(it->second.match(t));
    }
    return result;
}

TransactionView project(const store::Transaction& tx, const Reader& r, TransactionShape shape) {
    TransactionView view{.transaction = &tx};
    // ACS_DELTA leaves out transient contracts: created and archived in the same transaction.
    std::unordered_set<std::string_view> created_here, consumed_here;
    for (const store::Node& n : tx.nodes) {
        if (const auto* c = std::get_if<store::CreatedNode>(&n.event))
            created_here.insert(c->contract->contract_id);
        if (const auto* x = std::get_if<store::ExercisedNode>(&n.event); x && x->consuming) {
            consumed_here.insert(x->contract_id);
        }
    }
    for (const store::Node& n : tx.nodes) {
        EventView e{.node = &n};
        const model::TemplateId* t = nullptr;
        std::vector<std::string> candidates;
        std::vector<std::string> stakeholders;
        // Views on creates; implementedInterfaces on archives and consuming exercises.
        bool lists_interfaces = true;
        if (const auto* c = std::get_if<store::CreatedNode>(&n.event)) {
            e.kind = EventView::Kind::created;
            t = &c->contract->template_id;
            stakeholders = c->contract->stakeholders;
            if (shape == TransactionShape::acs_delta &&
                consumed_here.contains(c->contract->contract_id))
                continue;
            candidates = shape == TransactionShape::acs_delta ? stakeholders : n.witnesses;
            e.acs_delta = r.any_party || intersects(stakeholders, r);
        } else {
            const auto& x = std::get<store::ExercisedNode>(n.event);
            t = &x.template_id;
            stakeholders = x.contract->stakeholders;
            if (shape == TransactionShape::acs_delta) {
                if (!x.consuming || created_here.contains(x.contract_id)) continue;
                e.kind = EventView::Kind::archived;
                candidates = stakeholders;
            } else {
                e.kind = EventView::Kind::exercised;
                candidates = n.witnesses;
                lists_interfaces = x.consuming;
                e.acs_delta = x.consuming && (r.any_party || intersects(stakeholders, r));
            }
        }
        e.witness_parties = visible(candidates, r);
        const auto matched = matches(r, r.any_party ? candidates : e.witness_parties, *t);
        if (e.witness_parties.empty() || !matched) continue;
        e.include_created_event_blob = matched->blob;
        if (lists_interfaces) {
            e.interfaces = matched->interfaces;
            std::sort(e.interfaces.begin(), e.interfaces.end(),
                      [](const auto& a, const auto& b) { return a.interface_id < b.interface_id; });
        }
        view.events.push_back(std::move(e));
    }
    view.submitter_visible = r.any_party ? !tx.submitters.empty() : intersects(tx.submitters, r);
    return view;
}

}  // namespace

http::Response post_transaction_by_offset(const store::LedgerStore& store, const LedgerAuth& auth,
                                          const http::RequestContext& ctx) {
    const Caller caller = auth.identify(ctx.request);  // 403
    const TransactionByOffsetRequest request =
        decode_transaction_by_offset(ctx.request.body);       // 400 text
    const TransactionFormat format = select_format(request);  // 400
    std::vector<std::string> parties;
    bool any_party = false;
    if (format.event_format) {
        for (const auto& [p, _] : format.event_format->filters_by_party) parties.push_back(p);
        any_party = format.event_format->filters_for_any_party.has_value();
    }
    auth.authorize(caller, parties, any_party);                    // 401, 403
    const EventFormat& events = validate(request.offset, format);  // 400
    check_known(store, events);                                    // 404
    Reader reader;
    const model::Network& network = store.network();
    for (const auto& [p, filters] : events.filters_by_party)
        reader.by_party[p] = merge(filters, network);
    if (events.filters_for_any_party)
        reader.any_party = merge(*events.filters_for_any_party, network);
    const store::UpdatePtr update = store.update_at(request.offset);
    const auto* tx = update ? std::get_if<store::Transaction>(update.get()) : nullptr;
    std::optional<TransactionView> view;
    if (tx != nullptr) view = project(*tx, reader, format.transaction_shape);
    if (!view || view->events.empty()) {
        throw ApiError(ErrorKind::not_found, "UPDATE_NOT_FOUND",
                       "Update not found, or not visible.", {},
                       {{"OFFSET", std::to_string(request.offset)}});
    }
    return http::Response::json(200, transaction_response(*view));
}

}  // namespace cantonlite::areas::ledger
