#pragma once

#include "core/Params.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <utility>
#include <variant>
#include <vector>

// The numbers `posenc describe` prints for a family's parameters, keyed as it prints them, from the
// family's FamilySpec::describe (RoPE's from RopeFrequencies::describe, ALiBi's from
// AlibiSlopes::describe, ...): `posenc describe` and `posenc check --config` print the same keys
// from this one list.
namespace posenc::Description {

// A value of the description: a word, an integer, a number, a truth value, a list, or unset (null).
using Value
    = std::variant<std::monostate, QString, std::int64_t, double, bool, std::vector<double>, std::vector<std::int64_t>>;
using Entries = std::vector<std::pair<QString, Value>>;
using Values = std::vector<Value>;

// The keys of the encoding's family, with their values for valid parameters; none for a family
// without derived numbers (sinusoidal, learned, none).
std::optional<Entries> entries(const Params &params);
// The keys alone, in their order; empty for a family without derived numbers.
QStringList keys(Encoding encoding);
// `values` keyed by the keys of `meanings`, in their order ("band_low, band_high" names two): the
// entries of a family whose words file holds its keys beside their meanings (docs/ARCHITECTURE.md,
// Adding an encoding family), so that each key is written once. A count of values other than of the
// keys stops the program.
Entries keyed(const QList<std::pair<QString, QString>> &meanings, Values values);
// A value that may be unset: null then.
Value orNull(const std::optional<double> &value);
Value orNull(const std::optional<std::int64_t> &value);
// The value as text: JSON's where `json`, else the same without the quotes of a word (a list's
// items joined by ',').
QString text(const Value &value, bool json);
// A number as strict JSON (RFC 8259 has no NaN or Infinity): null where it is not finite.
QString jsonNumber(double value);
// `text` as a JSON string, quoted and escaped (QJsonDocument's escaping).
QString jsonString(const QString &text);

} // namespace posenc::Description
