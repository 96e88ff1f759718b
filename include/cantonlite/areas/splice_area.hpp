#pragma once
// SpliceArea: the error family shared by the Splice apps (scan, validator): {"error": "..."}.

#include <string>

#include "cantonlite/http/area.hpp"

namespace cantonlite::areas {

// Base of the scan and validator areas. Renders every handler error as application/json
// {"error": "<message>"} with the kind's status, as Splice's HttpErrorHandler does
// (docs/reference/splice-behavior.md §0.2).
class SpliceArea : public http::Area {
  public:
    using http::Area::Area;

    // The route's answer within Pekko's encodeResponse, which wraps every Splice route: gzip or
    // deflate as the client's Accept-Encoding asks (the JSON answers; Pekko's plain-text
    // rejections are rendered outside it), or 406 when the client refuses identity too.
    [[nodiscard]] http::Response handle(const http::Request& request,
                                        const std::vector<std::string>& segments) const override;

  protected:
    [[nodiscard]] http::Response head_response(const http::Request& request,
                                               const std::vector<std::string>& segments) const;
    [[nodiscard]] http::Response render_error(const http::ApiError& error,
                                              const http::Request& request) const override;
    [[nodiscard]] http::Response render_decode_error(const http::DecodeError& error) const override;
};

// GET /livez (common-external.yaml isLive), shared by both Splice apps: always 200 with an empty
// body, even while the app is starting (docs/reference/splice-behavior.md op 13).
[[nodiscard]] http::Response is_live(const http::RequestContext& ctx);

// Pekko's 401 for an ApiError of kind unauthenticated: code "missing" or "invalid", the realm in
// the context: text/plain with WWW-Authenticate: Bearer realm="<realm>".
[[nodiscard]] http::Response authentication_failed(const http::ApiError& error);

}  // namespace cantonlite::areas
