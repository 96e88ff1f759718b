#include "cantonlite/areas/java_time.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <optional>

#include "cantonlite/model/decimal.hpp"

namespace cantonlite::areas {
namespace {

constexpr std::int64_t seconds_per_day = 86400;

using model::Civil;
using model::civil_from_days;

std::int64_t days_from_civil(std::int64_t y, int m, int d) {
    return model::days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
}

int month_length(std::int64_t y, int m) {
    return static_cast<int>(model::days_in_month(y, static_cast<unsigned>(m)));
}

std::string two(std::int64_t n) {
    return std::string{static_cast<char>('0' + n / 10), static_cast<char>('0' + n % 10)};
}

// A fraction of a second as java.time prints it: none for 0, else 3, 6 or 9 digits.
std::string fraction(std::int32_t nano) {
    if (nano == 0) return "";
    std::string digits = std::to_string(1'000'000'000 + nano).substr(1);
    if (nano % 1'000'000 == 0) return "." + digits.substr(0, 3);
    if (nano % 1'000 == 0) return "." + digits.substr(0, 6);
    return "." + digits;
}

// LocalDate.toString's year: 4 digits at least, '+' above 9999, '-' below 0.
std::string java_year(std::int64_t y) {
    const std::int64_t a = y < 0 ? -y : y;
    std::string digits = std::to_string(a);
    if (a < 1000) digits = std::string(4 - digits.size(), '0') + digits;
    if (y < 0) return "-" + digits;
    return y > 9999 ? "+" + digits : digits;
}

std::string offset_id(std::int64_t seconds) {
    if (seconds == 0) return "Z";
    const std::int64_t a = seconds < 0 ? -seconds : seconds;
    std::string out = (seconds < 0 ? "-" : "+") + two(a / 3600) + ":" + two(a / 60 % 60);
    if (a % 60 != 0) out += ":" + two(a % 60);
    return out;
}

// Instant.toString (ISO_INSTANT): UTC, seconds always.
std::string instant_text(std::int64_t epoch_second, std::int32_t nano) {
    const std::int64_t days = epoch_second >= 0
                                  ? epoch_second / seconds_per_day
                                  : (epoch_second - seconds_per_day + 1) / seconds_per_day;
    const std::int64_t secs = epoch_second - days * seconds_per_day;
    const Civil c = civil_from_days(days);
    return java_year(c.year) + "-" + two(c.month) + "-" + two(c.day) + "T" + two(secs / 3600) +
           ":" + two(secs / 60 % 60) + ":" + two(secs % 60) + fraction(nano) + "Z";
}

// The fields the formatters parse.
struct Fields {
    std::int64_t year = 0;
    int month = 0, day = 0, hour = 0, minute = 0, second = 0;
    std::int32_t nano = 0;
    std::int64_t offset = 0;  // seconds
};

// A parse failure: the index of the element that failed (DateTimeParseException's error index),
// or, when the grammar matched a prefix, the text left unparsed, or a cause the parser threw.
struct Failure {
    enum Kind { at_index, unparsed, cause } kind;
    std::size_t index = 0;
    std::string message;
};

class Parser {
  public:
    Parser(std::string_view text, bool lenient_offset) : t_(text), lenient_(lenient_offset) {}

    // ISO_LOCAL_DATE 'T' HH ':' mm, then (instant) ':' ss fraction offset or (offset date-time)
    // [':' ss [fraction]] offset; the position after, or a Failure.
    std::variant<Fields, Failure> parse(bool seconds_required) {
        Fields f;
        std::size_t p = 0;
        if (!year(p, f.year) || !literal(p, '-') || !value(p, 2, f.month) || !literal(p, '-') ||
            !value(p, 2, f.day) || !literal(p, 'T') || !value(p, 2, f.hour) || !literal(p, ':') ||
            !value(p, 2, f.minute)) {
            return fail_;
        }
        if (seconds_required) {
            if (!literal(p, ':') || !value(p, 2, f.second) || !fraction_digits(p, f.nano))
                return fail_;
        } else if (p < t_.size() && t_[p] == ':') {
            // The optional section [:ss[.fffffffff]], rolled back whole when it does not match.
            std::size_t q = p + 1;
            Fields g = f;
            if (value(q, 2, g.second) && fraction_digits(q, g.nano)) {
                p = q;
                f = g;
            }
        }
        if (!offset(p, f.offset)) return fail_;
        if (p != t_.size()) return Failure{Failure::unparsed, p, ""};
        return f;
    }

  private:
    bool failed(std::size_t at) {
        fail_ = Failure{Failure::at_index, at, ""};
        return false;
    }
    static bool digit(char c) { return c >= '0' && c <= '9'; }

    // appendValue(YEAR, 4, 10, SignStyle.EXCEEDS_PAD), strict.
    bool year(std::size_t& p, std::int64_t& out) {
        const std::size_t start = p;
        if (p >= t_.size()) return failed(p);
        bool negative = false;
        bool positive = false;
        if (t_[p] == '+' || t_[p] == '-') {
            negative = t_[p] == '-';
            positive = !negative;
            ++p;
        }
        const std::size_t first = p;
        while (p < t_.size() && p - first < 10 && digit(t_[p])) ++p;
        const std::size_t n = p - first;
        if (n < 4) return failed(first);
        std::int64_t v = std::stoll(std::string(t_.substr(first, n)));
        if (negative && v == 0) return failed(start);
        if (positive && n <= 4) return failed(start);
        if (!negative && !positive && n > 4) return failed(first);
        out = negative ? -v : v;
        return true;
    }

    // appendValue(field, width): exactly `width` ASCII digits.
    bool value(std::size_t& p, std::size_t width, int& out) {
        if (p + width > t_.size()) return failed(p);
        int v = 0;
        for (std::size_t i = 0; i < width; ++i) {
            if (!digit(t_[p + i])) return failed(p);
            v = v * 10 + (t_[p + i] - '0');
        }
        p += width;
        out = v;
        return true;
    }

    // A literal character, matched case-insensitively (parseCaseInsensitive).
    bool literal(std::size_t& p, char c) {
        if (p >= t_.size() || std::tolower(static_cast<unsigned char>(t_[p])) !=
                                  std::tolower(static_cast<unsigned char>(c))) {
            return failed(p);
        }
        ++p;
        return true;
    }

    // appendFraction(NANO_OF_SECOND, 0, 9, true): an optional '.' and up to 9 digits.
    bool fraction_digits(std::size_t& p, std::int32_t& nano) {
        if (p >= t_.size() || t_[p] != '.') return true;
        ++p;
        std::int32_t v = 0;
        std::size_t n = 0;
        while (p < t_.size() && n < 9 && digit(t_[p])) {
            v = v * 10 + (t_[p] - '0');
            ++p;
            ++n;
        }
        for (; n < 9; ++n) v *= 10;
        nano = v;
        return true;
    }

    // Two digits of an offset at `p` (after a ':' when `colon`), at most 59.
    std::optional<int> offset_digits(std::size_t& p, bool colon) const {
        std::size_t q = p;
        if (colon) {
            if (q >= t_.size() || t_[q] != ':') return std::nullopt;
            ++q;
        }
        if (q + 2 > t_.size() || !digit(t_[q]) || !digit(t_[q + 1])) return std::nullopt;
        const int v = (t_[q] - '0') * 10 + (t_[q + 1] - '0');
        if (v > 59) return std::nullopt;
        p = q + 2;
        return v;
    }

    // OffsetIdPrinterParser("+HH:MM:ss", "Z"): strict (ISO_INSTANT) needs the minutes; lenient
    // (ISO_OFFSET_DATE_TIME) takes +HH alone.
    bool offset(std::size_t& p, std::int64_t& out) {
        if (p >= t_.size()) return failed(p);
        if (t_[p] == 'Z' || t_[p] == 'z') {
            out = 0;
            ++p;
            return true;
        }
        if (t_[p] != '+' && t_[p] != '-') return failed(p);
        const int sign = t_[p] == '-' ? -1 : 1;
        std::size_t q = p + 1;
        const auto hour = offset_digits(q, false);
        if (!hour) return failed(p);
        int minute = 0;
        int second = 0;
        if (const auto m = offset_digits(q, true)) {
            minute = *m;
            if (const auto s = offset_digits(q, true)) second = *s;
        } else if (!lenient_) {
            return failed(p);
        }
        if (*hour > 23) {
            fail_ = Failure{Failure::cause, 0,
                            "Value out of range: Hour[0-23], Minute[0-59], Second[0-59]"};
            return false;
        }
        out = sign * (*hour * 3600 + minute * 60 + second);
        p = q;
        return true;
    }

    std::string_view t_;
    bool lenient_;
    Failure fail_{Failure::at_index, 0, ""};
};

// DateTimeParseException's message for `text`.
std::string parse_error(std::string_view text, const Failure& f) {
    // The text as the message shows it: cut to 64 UTF-16 code units, then "...".
    std::string abbreviated;
    std::size_t units = 0;
    std::size_t i = 0;
    while (i < text.size() && units < 64) {
        const auto b = static_cast<unsigned char>(text[i]);
        const std::size_t length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        units += length == 4 ? 2 : 1;
        i += length;
    }
    abbreviated = std::string(text.substr(0, std::min(i, text.size())));
    if (i < text.size()) abbreviated += "...";
    const std::string head = "Text '" + abbreviated + "' could not be parsed";
    switch (f.kind) {
        case Failure::at_index:
            return head + " at index " + std::to_string(f.index);
        case Failure::unparsed:
            return head + ", unparsed text found at index " + std::to_string(f.index);
        case Failure::cause:
            break;
    }
    return head + ": " + f.message;
}

constexpr std::int64_t max_offset = 18 * 3600;

JavaDateTime date_time(const Fields& f, std::int64_t days, std::int64_t second_of_day, bool utc) {
    JavaDateTime out;
    out.epoch_second = days * seconds_per_day + second_of_day - (utc ? 0 : f.offset);
    out.nano = f.nano;
    if (utc) {
        // Instant.atZone(UTC).toOffsetDateTime().toString().
        const Civil c = civil_from_days(days);
        const std::int64_t s = second_of_day;
        out.text = java_year(c.year) + "-" + two(c.month) + "-" + two(c.day) + "T" + two(s / 3600) +
                   ":" + two(s / 60 % 60);
        if (s % 60 != 0 || f.nano != 0) out.text += ":" + two(s % 60) + fraction(f.nano);
        out.text += "Z";
    } else {
        out.text = java_year(f.year) + "-" + two(f.month) + "-" + two(f.day) + "T" + two(f.hour) +
                   ":" + two(f.minute);
        if (f.second != 0 || f.nano != 0) out.text += ":" + two(f.second) + fraction(f.nano);
        out.text += offset_id(f.offset);
    }
    return out;
}

std::variant<JavaDateTime, std::string> parse_offset_date_time(std::string_view text) {
    const auto parsed = Parser(text, true).parse(false);
    if (const auto* failure = std::get_if<Failure>(&parsed)) return parse_error(text, *failure);
    const Fields& f = std::get<Fields>(parsed);
    // The STRICT resolver: every field in range, a real date, an offset within ±18:00.
    if (f.year < -999'999'999 || f.year > 999'999'999 || f.month < 1 || f.month > 12 || f.day < 1 ||
        f.day > month_length(f.year, f.month) || f.hour > 23 || f.minute > 59 || f.second > 59 ||
        f.offset < -max_offset || f.offset > max_offset) {
        return std::string();  // never shown: the Instant parser's message is
    }
    return date_time(f, days_from_civil(f.year, f.month, f.day),
                     f.hour * 3600 + f.minute * 60 + f.second, false);
}

}  // namespace

std::variant<JavaDateTime, std::string> parse_java_instant(std::string_view text) {
    const auto parsed = Parser(text, false).parse(true);
    if (const auto* failure = std::get_if<Failure>(&parsed)) return parse_error(text, *failure);
    Fields f = std::get<Fields>(parsed);
    // InstantPrinterParser: 24:00:00 is the next day, 23:59:60 is 23:59:59; anything else out of
    // range fails the whole text at index 0.
    std::int64_t extra_days = 0;
    if (f.hour == 24 && f.minute == 0 && f.second == 0 && f.nano == 0) {
        f.hour = 0;
        extra_days = 1;
    } else if (f.hour == 23 && f.minute == 59 && f.second == 60) {
        f.second = 59;
    }
    const std::int64_t year = f.year % 10'000;  // LocalDateTime.of takes the year mod 10000
    if (f.month < 1 || f.month > 12 || f.day < 1 || f.day > month_length(year, f.month) ||
        f.hour > 23 || f.minute > 59 || f.second > 59 || f.offset < -max_offset ||
        f.offset > max_offset) {
        return parse_error(text, Failure{Failure::at_index, 0, ""});
    }
    const std::int64_t days = days_from_civil(f.year, f.month, f.day) + extra_days;
    const std::int64_t second_of_day = f.hour * 3600 + f.minute * 60 + f.second - f.offset;
    const std::int64_t epoch = days * seconds_per_day + second_of_day;
    const std::int64_t utc_days =
        epoch >= 0 ? epoch / seconds_per_day : (epoch - seconds_per_day + 1) / seconds_per_day;
    return date_time(f, utc_days, epoch - utc_days * seconds_per_day, true);
}

std::variant<JavaDateTime, std::string> parse_guardrail_date_time(std::string_view text) {
    auto odt = parse_offset_date_time(text);
    if (std::holds_alternative<JavaDateTime>(odt)) return odt;
    return parse_java_instant(text);
}

std::variant<model::Timestamp, std::string> daml_timestamp(const JavaDateTime& t) {
    const model::Int128 micros =
        static_cast<model::Int128>(t.epoch_second) * 1'000'000 + t.nano / 1000;  // floor: nano >= 0
    const std::string head =
        "cannot convert instant " + instant_text(t.epoch_second, t.nano) + " into Timestamp:";
    constexpr std::int64_t min = -62'135'596'800'000'000;  // 0001-01-01T00:00:00Z
    constexpr std::int64_t max = 253'402'300'799'999'999;  // 9999-12-31T23:59:59.999999Z
    if (micros > std::numeric_limits<std::int64_t>::max() ||
        micros < std::numeric_limits<std::int64_t>::min()) {
        return head + "Overflow";
    }
    const auto m = static_cast<std::int64_t>(micros);
    if (m < min || m > max) return head + "out of bound Timestamp " + std::to_string(m);
    return model::Timestamp{m};
}

}  // namespace cantonlite::areas
