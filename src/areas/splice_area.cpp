#include "cantonlite/areas/splice_area.hpp"

#include "cantonlite/http/content_coding.hpp"

namespace cantonlite::areas {

// transparent-head-requests is off in the Splice apps: a HEAD reaches the routes as HEAD, which
// guardrail's get/post directives reject (405 with Allow), or matches no path (the not-found
// route).
http::Response SpliceArea::head_response(const http::Request& request,
                                         const std::vector<std::string>& segments) const {
    const http::RouteTable::Match match = routes().match("HEAD", segments);
    return match.allowed.empty() ? http::not_found_response(request)
                                 : http::method_not_allowed_response(match.allowed);
}

http::Response SpliceArea::handle(const http::Request& request,
                                  const std::vector<std::string>& segments) const {
    // HttpAdminService: handleRejections(default) { encodeResponse(handleRejections(notFound) {
    // routes }) }. The coding is chosen from the request before any route runs.
    const http::ContentCoding coding = http::negotiate_coding(request.headers);
    if (coding == http::ContentCoding::unacceptable) {
        return http::Response::text(406, http::unacceptable_coding_text());
    }
    http::Response response =
        request.head ? head_response(request, segments) : http::Area::handle(request, segments);
    // Encoder.DefaultFilter: a compressible type (the JSON answers: plain-text rejections are
    // rendered outside encodeResponse, and livez has no entity) and a status that allows one.
    if (coding == http::ContentCoding::identity || response.deferred ||
        response.content_type != http::json_content_type || response.status == 204 ||
        response.status == 205 || response.status == 304) {
        return response;
    }
    response.body = http::encode_body(response.body, coding);
    response.headers.insert(response.headers.begin(),
                            {"Content-Encoding", std::string(http::coding_name(coding))});
    return response;
}

http::Response is_live(const http::RequestContext& /*ctx*/) {
    return http::Response::empty(200);
}

http::Response SpliceArea::render_error(const http::ApiError& error,
                                        const http::Request& /*request*/) const {
    if (error.kind() == http::ErrorKind::unauthenticated) return authentication_failed(error);
    // Returned errors: guardrail's marshaller (Printer.noSpaces). Thrown ones: HttpErrorHandler's
    // completeErrorResponse, `encodeErrorResponse(...).toString` (spaces2).
    return http::Response::json(
        http::http_status(error.kind()),
        http::error_body(error.what(), error.returned() ? http::ErrorLayout::compact
                                                        : http::ErrorLayout::indented));
}

http::Response authentication_failed(const http::ApiError& error) {
    // Pekko's RejectionHandler.default for AuthenticationFailedRejection: plain text, a challenge.
    http::Response response = http::Response::text(
        401, error.code() == "missing"
                 ? "The resource requires authentication, which was not supplied with the request"
                 : "The supplied authentication is invalid");
    std::string realm;
    for (const auto& [key, value] : error.context()) {
        if (key == "realm") realm = value;
    }
    response.headers.push_back({"WWW-Authenticate", "Bearer realm=\"" + realm + "\""});
    return response;
}

http::Response SpliceArea::render_decode_error(const http::DecodeError& error) const {
    // A Pekko rejection (malformed or missing body, query parameter or Content-Type), answered by
    // RejectionHandler.default in plain text.
    return http::Response::text(error.status(), error.text());
}

}  // namespace cantonlite::areas
