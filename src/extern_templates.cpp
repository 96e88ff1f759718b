// The one copy of the templates extern_templates.hpp declares (nlohmann's; fmt's is libfmt.so's).
#include "extern_templates.hpp"

CANTONLITE_EXTERN_JSON(, nlohmann::json)
CANTONLITE_EXTERN_JSON(, nlohmann::ordered_json)
