#include "cantonlite/model/timestamp.hpp"

#include <array>

namespace cantonlite::model {
namespace {

constexpr std::int64_t seconds_per_day = 86'400;

// Reads exactly `n` digits at `pos`, advancing it; nullopt when they are not all digits.
std::optional<unsigned> read_digits(std::string_view s, std::size_t& pos, std::size_t n) {
    if (pos + n > s.size()) return std::nullopt;
    unsigned value = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const char c = s[pos + i];
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    pos += n;
    return value;
}

bool expect(std::string_view s, std::size_t& pos, char c) {
    if (pos >= s.size() || s[pos] != c) return false;
    ++pos;
    return true;
}

// Reads ".ddd…" at pos; returns micros, or nullopt when a non-zero digit is finer than 1us.
std::optional<std::int64_t> read_fraction(std::string_view s, std::size_t& pos) {
    if (pos >= s.size() || s[pos] != '.') return 0;
    ++pos;
    const std::size_t start = pos;
    std::int64_t micros = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
        const std::size_t index = pos - start;
        if (index < 6) {
            micros = micros * 10 + (s[pos] - '0');
        } else if (s[pos] != '0') {
            return std::nullopt;
        }
        ++pos;
    }
    const std::size_t digits = pos - start;
    if (digits == 0) return std::nullopt;
    for (std::size_t i = digits; i < 6; ++i) micros *= 10;
    return micros;
}

// Reads "Z" or "±hh:mm"; returns the offset in seconds east of UTC.
std::optional<std::int64_t> read_offset(std::string_view s, std::size_t& pos) {
    if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
        ++pos;
        return 0;
    }
    if (pos >= s.size() || (s[pos] != '+' && s[pos] != '-')) return std::nullopt;
    const int sign = s[pos] == '-' ? -1 : 1;
    ++pos;
    const auto hh = read_digits(s, pos, 2);
    if (!hh || !expect(s, pos, ':')) return std::nullopt;
    const auto mm = read_digits(s, pos, 2);
    if (!mm || *hh > 23 || *mm > 59) return std::nullopt;
    return sign * static_cast<std::int64_t>(*hh * 3600 + *mm * 60);
}

// Appends `v` (0 <= v < 10^width) in `width` digits, zeros first, as printf's %0<width>d.
void put_digits(std::string& out, std::int64_t v, int width) {
    const std::size_t at = out.size();
    out.resize(at + static_cast<std::size_t>(width));
    for (int i = width - 1; i >= 0; --i) {
        out[at + static_cast<std::size_t>(i)] = static_cast<char>('0' + v % 10);
        v /= 10;
    }
}

// "YYYY-MM-DDTHH:MM:SS" of the UTC instant t, and the micros within its second.
std::string format_seconds(Timestamp t, std::int64_t& micros_of_second) {
    std::int64_t seconds = t.micros / micros_per_second;
    micros_of_second = t.micros % micros_per_second;
    if (micros_of_second < 0) {
        micros_of_second += micros_per_second;
        --seconds;
    }
    std::int64_t days = seconds / seconds_per_day;
    std::int64_t second_of_day = seconds % seconds_per_day;
    if (second_of_day < 0) {
        second_of_day += seconds_per_day;
        --days;
    }
    std::string out = format_date(days);
    out += 'T';
    put_digits(out, second_of_day / 3600, 2);
    out += ':';
    put_digits(out, second_of_day / 60 % 60, 2);
    out += ':';
    put_digits(out, second_of_day % 60, 2);
    return out;
}

std::string six_digits(std::int64_t micros) {
    std::string out;
    put_digits(out, micros, 6);
    return out;
}

// Reads "YYYY-MM-DD" at pos, advancing it; the days since the epoch of a real calendar date.
std::optional<std::int64_t> read_date(std::string_view s, std::size_t& pos) {
    const auto year = read_digits(s, pos, 4);
    if (!year || !expect(s, pos, '-')) return std::nullopt;
    const auto month = read_digits(s, pos, 2);
    if (!month || !expect(s, pos, '-')) return std::nullopt;
    const auto day = read_digits(s, pos, 2);
    if (!day || *month < 1 || *month > 12 || *day < 1 || *day > days_in_month(*year, *month)) {
        return std::nullopt;
    }
    return days_from_civil(*year, *month, *day);
}

}  // namespace

// H. Hinnant's days_from_civil and civil_from_days.
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

Civil civil_from_days(std::int64_t z) {
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    return {static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

bool is_leap(std::int64_t y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned days_in_month(std::int64_t y, unsigned m) {
    static constexpr std::array<unsigned, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

std::optional<Timestamp> parse_timestamp(std::string_view s) {
    std::size_t pos = 0;
    const auto days = read_date(s, pos);
    if (!days || pos >= s.size() || (s[pos] != 'T' && s[pos] != 't')) return std::nullopt;
    ++pos;
    const auto hour = read_digits(s, pos, 2);
    if (!hour || !expect(s, pos, ':')) return std::nullopt;
    const auto minute = read_digits(s, pos, 2);
    if (!minute || !expect(s, pos, ':')) return std::nullopt;
    const auto second = read_digits(s, pos, 2);
    if (!second) return std::nullopt;
    const auto fraction = read_fraction(s, pos);
    const auto offset = fraction ? read_offset(s, pos) : std::nullopt;
    if (!offset || pos != s.size()) return std::nullopt;
    if (*hour > 23 || *minute > 59 || *second > 59) return std::nullopt;
    const std::int64_t seconds =
        *days * seconds_per_day + *hour * 3600 + *minute * 60 + *second - *offset;
    return Timestamp{seconds * micros_per_second + *fraction};
}

std::string format_offset_date_time(Timestamp t) {
    std::int64_t micros = 0;
    std::string out = format_seconds(t, micros);
    if (micros != 0) {
        std::string fraction = six_digits(micros);
        while (fraction.back() == '0') fraction.pop_back();
        out += '.';
        out += fraction;
    }
    out += 'Z';
    return out;
}

std::string format_instant(Timestamp t) {
    std::int64_t micros = 0;
    std::string out = format_seconds(t, micros);
    if (micros != 0) {
        const std::string fraction = six_digits(micros);
        out += '.';
        out += micros % 1000 == 0 ? fraction.substr(0, 3) : fraction;
    }
    out += 'Z';
    return out;
}

std::string format_java_to_string(Timestamp t) {
    std::string out = format_instant(t);  // "yyyy-mm-ddThh:mm:ss[.fff[fff]]Z"
    // LocalTime.toString leaves the seconds out when they and the fraction are zero.
    if (t.micros % 60'000'000 == 0 && out.ends_with(":00Z")) out.erase(out.size() - 4, 3);
    return out;
}

std::string format_micros(Timestamp t) {
    std::int64_t micros = 0;
    std::string out = format_seconds(t, micros);
    out += '.';
    out += six_digits(micros);
    out += 'Z';
    return out;
}

std::string format_date(std::int64_t days_since_epoch) {
    const Civil c = civil_from_days(days_since_epoch);
    std::string out;
    out.reserve(32);                    // room for the time after it (format_seconds)
    if (c.year < 0 || c.year > 9999) {  // beyond a Daml date: as printf's %04lld
        out = std::to_string(c.year);
        if (c.year < 0 && out.size() < 4) out.insert(1, 4 - out.size(), '0');
    } else {
        put_digits(out, c.year, 4);
    }
    out += '-';
    put_digits(out, c.month, 2);
    out += '-';
    put_digits(out, c.day, 2);
    return out;
}

std::optional<std::int64_t> parse_date(std::string_view s) {
    std::size_t pos = 0;
    const auto days = read_date(s, pos);
    if (!days || pos != s.size()) return std::nullopt;
    return days;
}

std::optional<std::int64_t> parse_duration_micros(std::string_view text) {
    constexpr std::int64_t second = 1'000'000;
    std::size_t i = 0;
    const auto sign = [&]() -> std::int64_t {
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) return text[i++] == '-' ? -1 : 1;
        return 1;
    };
    const auto upper = [&](std::size_t k) {
        return k < text.size() ? static_cast<char>(text[k] & ~0x20) : '\0';
    };
    const std::int64_t overall = sign();
    if (upper(i) != 'P') return std::nullopt;
    ++i;
    std::int64_t total = 0;
    bool any = false;
    bool in_time = false;
    char last_unit = 0;
    const auto add = [&](std::int64_t amount, std::int64_t unit) {
        std::int64_t part = 0;
        if (__builtin_mul_overflow(amount, unit, &part)) return false;
        return !__builtin_add_overflow(total, part, &total);
    };
    while (i < text.size()) {
        if (upper(i) == 'T') {
            if (in_time) return std::nullopt;
            in_time = true;
            ++i;
            if (i == text.size()) return std::nullopt;  // "PT" alone
            continue;
        }
        const std::int64_t part_sign = sign();
        std::int64_t whole = 0;
        const std::size_t digits_at = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            if (__builtin_mul_overflow(whole, 10, &whole) ||
                __builtin_add_overflow(whole, text[i] - '0', &whole)) {
                return std::nullopt;
            }
            ++i;
        }
        if (i == digits_at) return std::nullopt;
        std::int64_t fraction = 0;
        bool has_fraction = false;
        if (i < text.size() && (text[i] == '.' || text[i] == ',')) {
            has_fraction = true;
            ++i;
            std::int64_t scale = 100'000;
            const std::size_t frac_at = i;
            while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
                if (i - frac_at >= 9) return std::nullopt;                    // at most nanoseconds
                if (i - frac_at >= 6 && text[i] != '0') return std::nullopt;  // finer than micros
                fraction += (text[i] - '0') * scale;
                scale /= 10;
                ++i;
            }
            if (i == frac_at) return std::nullopt;
        }
        const char unit = upper(i);
        ++i;
        std::int64_t unit_micros = 0;
        if (!in_time && unit == 'D' && last_unit == 0) {
            unit_micros = 86'400 * second;
        } else if (in_time && unit == 'H' && (last_unit == 0 || last_unit == 'D')) {
            unit_micros = 3'600 * second;
        } else if (in_time && unit == 'M' && last_unit != 'M' && last_unit != 'S') {
            unit_micros = 60 * second;
        } else if (in_time && unit == 'S' && last_unit != 'S') {
            unit_micros = second;
        } else {
            return std::nullopt;
        }
        if (has_fraction && unit != 'S') return std::nullopt;
        if (!add(part_sign * whole, unit_micros) || !add(part_sign * fraction, 1)) {
            return std::nullopt;
        }
        last_unit = unit;
        any = true;
    }
    if (!any) return std::nullopt;
    return overall * total;
}

}  // namespace cantonlite::model
