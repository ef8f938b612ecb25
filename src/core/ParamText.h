#pragma once

#include "ParamTable.h"
#include "Params.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace posenc {

// The textual form of parameters, shared by the command line and session files: one key per
// parameter (the flag without its dashes) and one syntax per value, read from the parameter
// table (ParamTable). Only syntax is checked here; ranges are Params::validate()'s job.
namespace ParamText {

// Keys that take a value, in the order of the command line's --help.
QStringList valueKeys();

// Sets parameter `key` from `text`; returns an error naming the key and the expected form.
std::optional<ParamError> set(Params &params, const QString &key, const QString &text);

// The text that set() reads back to the same value.
QString get(const Params &params, const QString &key);

// A short description and the value syntax of a key, for --help.
QString describe(const QString &key);
QString valueName(const QString &key);
// What a value of `key` must be: "an integer in [1, 1048576]".
QString allowed(const QString &key);

QString toString(Layout);
QString toString(Angles);
QString toString(Compose);
QString toString(DropoutMode);
QString toString(Encoding);

// ParamTable's readers of lists, ranges and numbers (kept here for their callers).
constexpr std::int64_t kMaxIndexListLength = ParamTable::kMaxIndexListLength;
std::optional<std::vector<std::int64_t>> parseIndexList(const QString &text,
                                                        std::int64_t maxCount = kMaxIndexListLength);
std::optional<std::pair<std::int64_t, std::int64_t>> parseRange(const QString &text);
std::optional<double> parseFinite(const QString &text);

} // namespace ParamText

} // namespace posenc
