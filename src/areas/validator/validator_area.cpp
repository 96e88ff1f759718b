#include "cantonlite/areas/validator/validator_area.hpp"

namespace cantonlite::areas::validator {

ValidatorArea::ValidatorArea(const store::LedgerStore& store)
    : SpliceArea("/api/validator/", "/api/validator"), store_(store) {
    // validator-internal.yaml $refs common-external.yaml /livez: the admin route of every Splice
    // app.
    add_route("GET", "/livez", is_live);
}

}  // namespace cantonlite::areas::validator
