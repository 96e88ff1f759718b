// The one copy of the templates extern_templates.hpp declares (nlohmann's; fmt's is libfmt.so's).
#include "extern_templates.hpp"

#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpedantic"  // as in extern_templates.hpp
#endif
CANTONLITE_EXTERN_JSON(, nlohmann::json)
CANTONLITE_EXTERN_JSON(, nlohmann::ordered_json)
