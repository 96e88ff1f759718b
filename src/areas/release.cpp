#include "cantonlite/areas/release.hpp"

namespace cantonlite::areas {

std::string_view release_name(Release release) {
    return release == Release::splice_0_9 ? "splice-0.9" : "splice-0.6";
}

std::optional<Release> parse_release(std::string_view name) {
    if (name == "splice-0.6") return Release::splice_0_6;
    if (name == "splice-0.9") return Release::splice_0_9;
    return std::nullopt;
}

std::string_view canton_version(Release release) {
    return release == Release::splice_0_9 ? "3.6" : "3.5";
}

std::string_view canton_build_version(Release release) {
    return release == Release::splice_0_9 ? "3.6.0" : "3.5.10";
}

std::string_view splice_version(Release release) {
    return release == Release::splice_0_9 ? "0.9" : "0.6.12";
}

bool is_enabled(const ApiProfile& profile, Deprecation deprecation) {
    if (!profile.canton_3_6()) return true;
    switch (deprecation) {
        case Deprecation::endpoints_34:
            return profile.deprecated.endpoints_34;
        case Deprecation::parameters_34:
            return profile.deprecated.parameters_34;
        case Deprecation::endpoints_35:
            return profile.deprecated.endpoints_35;
    }
    return false;
}

std::string disabled_message(Deprecation deprecation, std::string_view api) {
    std::string_view since = "3.4";
    std::string_view flag = "enable-deprecated-endpoints-34";
    if (deprecation == Deprecation::parameters_34) flag = "enable-deprecated-parameters-34";
    if (deprecation == Deprecation::endpoints_35) {
        since = "3.5";
        flag = "enable-deprecated-endpoints-35";
    }
    std::string out(api);
    out += " was deprecated in Canton ";
    out += since;
    out +=
        ", is disabled by default since Canton 3.6 and will be removed in Canton 3.7. Set "
        "`canton.participants.<participant>.features.deprecated.";
    out += flag;
    out += " = true` to re-enable it temporarily.";
    return out;
}

}  // namespace cantonlite::areas
