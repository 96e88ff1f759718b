#pragma once
// Timestamp: a UTC instant with microsecond precision, and the three text forms the real services
// print.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cantonlite::model {

inline constexpr std::int64_t micros_per_second = 1'000'000;

// A point in time, in microseconds since 1970-01-01T00:00:00Z (Daml's Timestamp precision).
struct Timestamp {
    std::int64_t micros = 0;

    auto operator<=>(const Timestamp&) const = default;
};

// Parses an RFC 3339 date-time ("2024-05-01T10:00:00Z", "2024-05-01T12:00:00.5+02:00").
// Returns nullopt for anything else: a missing 'T', missing seconds, a missing offset, an
// impossible calendar date, or a fraction finer than microseconds that is not zero.
[[nodiscard]] std::optional<Timestamp> parse_timestamp(std::string_view text);

// An ISO-8601 duration as java.time.Duration.parse reads it: "PT1H", "P2D", "PT1M30.5S",
// "-PT10S"; days, hours, minutes and seconds (each may be signed), fraction digits of seconds up to
// microseconds. Returns the microseconds, or nullopt for anything else (also on overflow).
[[nodiscard]] std::optional<std::int64_t> parse_duration_micros(std::string_view text);

// Java's ISO_OFFSET_DATE_TIME at UTC, as circe prints OffsetDateTime fields of the Splice HTTP
// layer: seconds always present, the fewest fraction digits, 'Z'. "2024-05-01T10:00:00.12Z".
[[nodiscard]] std::string format_offset_date_time(Timestamp t);

// Java's Instant.toString (ISO_INSTANT), as Daml prints Timestamps: the fraction in groups of
// 0, 3 or 6 digits. "2024-09-11T10:28:09.304591Z", "2024-09-11T10:28:09.300Z".
[[nodiscard]] std::string format_instant(Timestamp t);

// Java's OffsetDateTime.toString at UTC, as Scan's error texts print request times: seconds only
// when not zero, the fraction in groups of 3 digits. "2024-05-01T10:00Z", "2024-05-01T10:00:05Z".
[[nodiscard]] std::string format_java_to_string(Timestamp t);

// A fixed six-digit fraction, as Scan prints update-history record times.
// "2024-05-01T10:00:00.000000Z".
[[nodiscard]] std::string format_micros(Timestamp t);

// A Daml Date as Java's LocalDate.toString (ISO_LOCAL_DATE) prints it for years 1..9999:
// "2024-05-01". `days_since_epoch` counts from 1970-01-01.
[[nodiscard]] std::string format_date(std::int64_t days_since_epoch);

// The proleptic Gregorian calendar: days since 1970-01-01 of a date, and back; leap years; the
// days of a month (1-12).
struct Civil {
    std::int64_t year;
    unsigned month;
    unsigned day;
};
[[nodiscard]] std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d);
[[nodiscard]] Civil civil_from_days(std::int64_t days);
[[nodiscard]] bool is_leap(std::int64_t y);
[[nodiscard]] unsigned days_in_month(std::int64_t y, unsigned m);

// Parses "yyyy-mm-dd" (four-digit year, proleptic Gregorian) into days since 1970-01-01.
// Returns nullopt for anything else, including an impossible calendar date.
[[nodiscard]] std::optional<std::int64_t> parse_date(std::string_view text);

}  // namespace cantonlite::model
