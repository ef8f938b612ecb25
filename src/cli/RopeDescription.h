#pragma once

#include "core/Params.h"

#include <QList>
#include <QString>

#include <cstdint>
#include <utility>
#include <variant>

// The numbers `posenc describe` prints for RoPE parameters (RopeFrequencies::describe), keyed as
// it prints them: `posenc describe` and `posenc check --config` print the same keys alike.
namespace posenc::RopeDescription {

// A value of the description: a word, an integer, a number, or unset (null).
using Value = std::variant<std::monostate, QString, std::int64_t, double>;

// The keys in the order of the table, which --help lists too.
QStringList keys();
// Each key with its value for valid parameters under encoding rope.
QList<std::pair<QString, Value>> entries(const Params &params);
// The value as text: JSON's where `json`, else the same without the quotes of a word.
QString text(const Value &value, bool json);

} // namespace posenc::RopeDescription
