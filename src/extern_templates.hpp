// Force-included in every translation unit of the project (-include, CMakeLists.txt): the
// biggest templates every file instantiates, declared extern so that each is compiled once, in
// extern_templates.cpp (nlohmann) or in the shared library that ships it (fmt), rather than in
// every object (docs/build.md). What is declared here changes no behaviour: an inline function
// may still be inlined, and an object that needs a definition links the one copy.
#pragma once

#ifdef __cplusplus

#include <nlohmann/json.hpp>

#include <string>

// Explicit instantiation declarations of nlohmann::basic_json's heaviest parts, for the two
// document types the project uses, and of its parser for the two inputs it reads from.
#define CANTONLITE_EXTERN_JSON(prefix, Json)                                                   \
    prefix template class nlohmann::detail::serializer<Json>;                                  \
    prefix template class nlohmann::detail::json_sax_dom_parser<Json>;                         \
    prefix template class nlohmann::detail::json_sax_dom_callback_parser<Json>;                \
    prefix template class nlohmann::detail::lexer<                                             \
        Json, nlohmann::detail::iterator_input_adapter<const char*>>;                          \
    prefix template class nlohmann::detail::parser<                                            \
        Json, nlohmann::detail::iterator_input_adapter<const char*>>;                          \
    prefix template class nlohmann::detail::lexer<                                             \
        Json, nlohmann::detail::iterator_input_adapter<std::string::const_iterator>>;          \
    prefix template class nlohmann::detail::parser<                                            \
        Json, nlohmann::detail::iterator_input_adapter<std::string::const_iterator>>;          \
    prefix template union Json::json_value;                                                    \
    prefix template Json::basic_json(const Json&);                                             \
    prefix template Json::~basic_json() noexcept;                                              \
    prefix template std::string Json::dump(int, char, bool, nlohmann::detail::error_handler_t) \
        const;

// clang (-Wpedantic) wants a template-id, not the typedef, after the member's qualifier.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpedantic"
#endif
CANTONLITE_EXTERN_JSON(extern, nlohmann::json)
CANTONLITE_EXTERN_JSON(extern, nlohmann::ordered_json)
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

// spdlog's logger formats through fmt::detail::vformat_to<char>, which Debian's libfmt.so exports:
// every object that logs would otherwise compile fmt's whole formatting engine. GCC only: clang
// mangles this declaration's argument type otherwise than the GCC that built libfmt.so, and the
// link would miss it.
#if defined(__GNUC__) && !defined(__clang__) && __has_include(<fmt/format.h>)
#include <fmt/format.h>
extern template void fmt::detail::vformat_to<char>(
    fmt::detail::buffer<char>&, fmt::basic_string_view<char>,
    fmt::basic_format_args<fmt::buffer_context<fmt::type_identity_t<char>>>,
    fmt::detail::locale_ref);
#endif

#endif
