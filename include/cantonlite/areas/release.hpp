#pragma once
// The release line cantonlite answers as: which routes exist and how deprecated ones answer.
// One ledger serves either line; `serve --release` picks one (docs/releases.md).

#include <optional>
#include <string>
#include <string_view>

namespace cantonlite::areas {

enum class Release {
    splice_0_6,  // Canton 3.5 and Splice 0.6.12: the original specification (the default)
    splice_0_9,  // Canton 3.6 and Splice 0.9
};

// The participant's `features.deprecated` switches of Canton 3.6, which re-enable the APIs that
// Canton 3.4 and 3.5 deprecated and 3.6 disables by default (ApiDeprecation.scala).
struct DeprecatedApis {
    bool endpoints_34 = false;   // enable-deprecated-endpoints-34: transaction-by-offset, ...
    bool parameters_34 = false;  // enable-deprecated-parameters-34: the filter/verbose fields
    bool endpoints_35 = false;   // enable-deprecated-endpoints-35: package-vetting, ...
};

struct ApiProfile {
    Release release = Release::splice_0_6;
    DeprecatedApis deprecated;

    // Whether an API that Canton `deprecated_in` (3.4 or 3.5) deprecated still answers: always
    // before Canton 3.6, then only when its switch is on.
    [[nodiscard]] bool canton_3_6() const { return release == Release::splice_0_9; }
};

// "splice-0.6" or "splice-0.9".
[[nodiscard]] std::string_view release_name(Release release);
[[nodiscard]] std::optional<Release> parse_release(std::string_view name);
// "3.5" / "3.6" and "0.6.12" / "0.9": the versions of the release line.
[[nodiscard]] std::string_view canton_version(Release release);
// The participant's full version, as GET /v2/version reports it: "3.5.10" (the release after the
// 3.5.10-SNAPSHOT of the line's openapi.yaml) or "3.6.0".
[[nodiscard]] std::string_view canton_build_version(Release release);
[[nodiscard]] std::string_view splice_version(Release release);

// The deprecations of Canton 3.6, each with its participant flag (ApiDeprecation.scala).
enum class Deprecation { endpoints_34, parameters_34, endpoints_35 };

// Whether `profile` answers an API of `deprecation` (true before Canton 3.6).
[[nodiscard]] bool is_enabled(const ApiProfile& profile, Deprecation deprecation);

// The cause of DEPRECATED_API_DISABLED for `api` ("POST /v2/updates/transaction-by-offset", or
// "The fields filter/verbose of the /v2/updates requests"), as ApiDeprecation.disabledMessage
// writes it.
[[nodiscard]] std::string disabled_message(Deprecation deprecation, std::string_view api);

}  // namespace cantonlite::areas
