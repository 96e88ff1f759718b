#include "cantonlite/http/api_error.hpp"

#include <gtest/gtest.h>

#include "http/error_kind_name.hpp"

namespace cantonlite::http::api_error_test {
namespace {

struct StatusCase {
    ErrorKind kind;
    int status;
};

class HttpStatus : public testing::TestWithParam<StatusCase> {};

TEST_P(HttpStatus, OfEachKind) {
    const StatusCase& c = GetParam();

    EXPECT_EQ(http_status(c.kind), c.status);
}

// Splice ErrorHandler and Canton GrpcHttpErrorCodes (splice-behavior.md §0.2,
// canton-ledger-behavior.md §5.3).
INSTANTIATE_TEST_SUITE_P(Kinds, HttpStatus,
                         testing::Values(StatusCase{ErrorKind::invalid_argument, 400},
                                         StatusCase{ErrorKind::failed_precondition, 400},
                                         StatusCase{ErrorKind::out_of_range, 400},
                                         StatusCase{ErrorKind::unauthenticated, 401},
                                         StatusCase{ErrorKind::permission_denied, 403},
                                         StatusCase{ErrorKind::not_found, 404},
                                         StatusCase{ErrorKind::already_exists, 409},
                                         StatusCase{ErrorKind::content_too_large, 413},
                                         StatusCase{ErrorKind::too_many_requests, 429},
                                         StatusCase{ErrorKind::internal, 500},
                                         StatusCase{ErrorKind::unimplemented, 501},
                                         StatusCase{ErrorKind::unavailable, 503}),
                         http::KindParamName{});

TEST(ApiError, CarriesKindCodeMessageContextAndResources) {
    const ApiError error(ErrorKind::not_found, "UPDATE_NOT_FOUND",
                         "Update not found, or not visible.", {{"offset", "5"}}, {{"OFFSET", "5"}});

    EXPECT_EQ(error.kind(), ErrorKind::not_found);
    EXPECT_EQ(error.code(), "UPDATE_NOT_FOUND");
    EXPECT_STREQ(error.what(), "Update not found, or not visible.");
    EXPECT_EQ(error.context(), (KeyValues{{"offset", "5"}}));
    EXPECT_EQ(error.resources(), (KeyValues{{"OFFSET", "5"}}));
}

TEST(DecodeError, WhatIsTheWholeBodyText) {
    const DecodeError error("Invalid value for: body (Long at 'offset')");

    EXPECT_STREQ(error.what(), "Invalid value for: body (Long at 'offset')");
}

}  // namespace
}  // namespace cantonlite::http::api_error_test
