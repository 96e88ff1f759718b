#pragma once
// The java.time parsers behind the Splice apps' date-times, with their error texts, and Daml's
// conversion to a ledger timestamp: what a Scan request's record_time, before, after and
// after_record_time go through. Sources: the JDK's DateTimeFormatter (ISO_OFFSET_DATE_TIME,
// ISO_INSTANT: DateTimeFormatterBuilder's NumberPrinterParser, FractionPrinterParser,
// OffsetIdPrinterParser, InstantPrinterParser), guardrail's Decoder[OffsetDateTime]
// (CirceProtocolGenerator: OffsetDateTime or Instant) and Daml's Time.Timestamp.fromInstant.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "cantonlite/model/timestamp.hpp"

namespace cantonlite::areas {

// A parsed java.time.OffsetDateTime: its instant, and its toString() (the local date-time as
// written, seconds only when not zero, fraction in groups of 3 digits, then Z or the offset).
struct JavaDateTime {
    std::int64_t epoch_second = 0;
    std::int32_t nano = 0;
    std::string text;  // OffsetDateTime.toString()
};

// Instant.parse (ISO_INSTANT): seconds required, an offset Z or ±HH:MM[:SS], 24:00:00 as the next
// day and 23:59:60 as 23:59:59. Else the DateTimeParseException message: "Text '<text>' could not
// be parsed at index N" (the text cut to 64 characters and "..."), "..., unparsed text found at
// index N", or "Text '...' could not be parsed: <cause>".
[[nodiscard]] std::variant<JavaDateTime, std::string> parse_java_instant(std::string_view text);

// guardrail's Decoder[OffsetDateTime]: OffsetDateTime.parse (ISO_OFFSET_DATE_TIME: seconds
// optional, a lenient offset Z, ±HH, ±HH:MM or ±HH:MM:SS), else Instant.parse at UTC; when both
// fail, the Instant parser's message.
[[nodiscard]] std::variant<JavaDateTime, std::string> parse_guardrail_date_time(
    std::string_view text);

// Daml's Timestamp.fromInstant (CantonTimestamp.fromInstant): the instant floored to
// microseconds, within 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59.999999Z; else "cannot convert
// instant <Instant.toString()> into Timestamp:out of bound Timestamp <micros>" (or ":Overflow").
[[nodiscard]] std::variant<model::Timestamp, std::string> daml_timestamp(const JavaDateTime& t);

}  // namespace cantonlite::areas
