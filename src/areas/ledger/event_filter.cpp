#include "cantonlite/areas/ledger/event_filter.hpp"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

#include "cantonlite/http/api_error.hpp"
#include "cantonlite/splice/interfaces.hpp"

namespace cantonlite::areas::ledger {
namespace {

using http::ApiError;
using http::ErrorKind;

constexpr std::string_view invalid_arguments = "The submitted request has invalid arguments: ";

void check_lf_party(const std::string& p) {
    if (const auto error = lf_party_error(p)) throw_invalid_argument(*error);
}

void check_filters(const Filters& filters) {
    for (const CumulativeFilter& f : filters.cumulative) {
        if (f.kind == CumulativeFilter::Kind::template_filter && !f.identifier)
            throw_missing_field("templateId");
        if (f.kind == CumulativeFilter::Kind::interface_filter && !f.identifier)
            throw_missing_field("interfaceId");
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

// `p`, made a match if it was none, now asking for the blob when `blob` is.
Projection& hit(std::optional<Projection>& p, bool blob) {
    if (!p) p.emplace();
    p->blob = p->blob || blob;
    return *p;
}

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
                for (const splice::InterfaceInstance& i : splice::interface_instances()) {
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

}  // namespace

void throw_invalid_argument(const std::string& what) {
    throw ApiError(ErrorKind::invalid_argument, "INVALID_ARGUMENT",
                   std::string(invalid_arguments) + what);
}

void throw_invalid_field(const std::string& field, const std::string& message) {
    throw ApiError(ErrorKind::invalid_argument, "INVALID_FIELD",
                   "The submitted command has a field with invalid value: Invalid field " + field +
                       ": " + message,
                   {{"field_name", field}});
}

void throw_missing_field(const std::string& field) {
    throw ApiError(ErrorKind::invalid_argument, "MISSING_FIELD",
                   "The submitted command is missing a mandatory field: " + field,
                   {{"field_name", field}});
}

void validate_event_format(const EventFormat& events) {
    if (events.filters_by_party.empty() && !events.filters_for_any_party) {
        throw_invalid_argument(
            "filtersByParty and filtersForAnyParty cannot be empty simultaneously");
    }
    for (const auto& [party, filters] : events.filters_by_party) {
        check_lf_party(party);
        check_filters(filters);
    }
    if (events.filters_for_any_party) check_filters(*events.filters_for_any_party);
}

const EventFormat& validate_transaction_format(const TransactionFormat& format) {
    if (format.transaction_shape == TransactionShape::unspecified)
        throw_missing_field("transaction_shape");
    if (!format.event_format) throw_missing_field("event_format");
    validate_event_format(*format.event_format);
    return *format.event_format;
}

std::vector<std::string> parties_of(const EventFormat& events) {
    std::vector<std::string> parties;
    for (const auto& [p, _] : events.filters_by_party) parties.push_back(p);
    return parties;
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
            if (splice::is_known_interface(package, f->identifier->module_name,
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

void Projection::add_interface(const InterfaceView& v) {
    const auto same = [&](const InterfaceView& o) { return o.instance == v.instance; };
    if (std::none_of(interfaces.begin(), interfaces.end(), same)) interfaces.push_back(v);
}

void Projection::add(const Projection& other) {
    blob = blob || other.blob;
    for (const InterfaceView& v : other.interfaces) add_interface(v);
}

std::optional<Projection> PartyFilter::match(const model::TemplateId& t) const {
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

Reader Reader::make(const EventFormat& events, const model::Network& network) {
    Reader reader;
    for (const auto& [p, filters] : events.filters_by_party)
        reader.by_party[p] = merge(filters, network);
    if (events.filters_for_any_party)
        reader.any_party = merge(*events.filters_for_any_party, network);
    return reader;
}

bool intersects(std::span<const model::Name> sorted_a, const Reader& r) {
    return std::any_of(sorted_a.begin(), sorted_a.end(),
                       [&](model::Name p) { return r.by_party.contains(p.view()); });
}

// The parties of `candidates` the reader asks for (all of them for an any-party reader).
std::vector<model::Name> visible(std::span<const model::Name> candidates, const Reader& r) {
    if (r.any_party) return {candidates.begin(), candidates.end()};
    std::vector<model::Name> out;
    for (const model::Name p : candidates) {
        if (r.by_party.contains(p.view())) out.push_back(p);
    }
    return out;
}

// Whether a filter of one of `parties` matches `t`, and what those filters ask to render.
std::optional<Projection> matches(const Reader& r, std::span<const model::Name> parties,
                                  const model::TemplateId& t) {
    std::optional<Projection> result;
    const auto add = [&](const std::optional<Projection>& m) {
        if (m) hit(result, false).add(*m);
    };
    if (r.any_party && !parties.empty()) add(r.any_party->match(t));
    for (const model::Name p : parties) {
        if (const auto it = r.by_party.find(p.view()); it != r.by_party.end()) {
            add(it->second.match(t));
        }
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
        if (const auto* x = store::exercised(n); x && x->consuming) {
            consumed_here.insert(x->contract_id);
        }
    }
    for (const store::Node& n : tx.nodes) {
        EventView e{.node = &n};
        const model::TemplateId* t = nullptr;
        model::TemplateId template_of_node;
        model::NameSet candidates;
        model::NameSet stakeholders;
        // Views on creates; implementedInterfaces on archives and consuming exercises.
        bool lists_interfaces = true;
        if (const auto* c = std::get_if<store::CreatedNode>(&n.event)) {
            e.kind = EventView::Kind::created;
            template_of_node = c->contract->template_id();
            t = &template_of_node;
            stakeholders = c->contract->stakeholders;
            if (shape == TransactionShape::acs_delta &&
                consumed_here.contains(c->contract->contract_id))
                continue;
            candidates = shape == TransactionShape::acs_delta ? stakeholders : n.witnesses;
            e.acs_delta = r.any_party || intersects(stakeholders, r);
        } else {
            const auto& x = *store::exercised(n);
            template_of_node = x.template_id();
            t = &template_of_node;
            stakeholders = x.stakeholders;
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
        const auto matched = matches(
            r, r.any_party ? candidates.names() : std::span<const model::Name>(e.witness_parties),
            *t);
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

std::optional<ContractView> view_contract(const Reader& r, const model::Contract& c) {
    ContractView view{.witness_parties = visible(c.stakeholders, r)};
    const auto matched = matches(
        r,
        r.any_party ? c.stakeholders.names() : std::span<const model::Name>(view.witness_parties),
        c.template_id());
    if (view.witness_parties.empty() || !matched) return std::nullopt;
    view.blob = matched->blob;
    view.interfaces = matched->interfaces;
    std::sort(view.interfaces.begin(), view.interfaces.end(),
              [](const auto& a, const auto& b) { return a.interface_id < b.interface_id; });
    return view;
}

}  // namespace cantonlite::areas::ledger
