#pragma once

#include "check/ModelConfigCheck.h"

#include <QStringList>

// `posenc check --config`'s report as a person reads it (docs/GUIDE.md, Checking a model's
// config): one row per layer group with its layers, encoding, theta, rotary part and place, rope
// type, pairs, window and scales, a guess marked "?"; then where each number comes from. The
// key-per-line dump stays behind --verbose and --json.
namespace posenc::ConfigCheckTable {

// The table, each line at most `width` columns (the layers column is shortened to fit); only
// `layerType`'s row where it is given.
QStringList table(const ConfigCheck &check, const QString &layerType, int width);
// Where each group's numbers come from (ConfigLayer::sources), groups alike in all of them said
// once, lines wrapped at `width`.
QStringList sources(const ConfigCheck &check, const QString &layerType, int width);
// `text` in lines of at most `width` columns (a word longer than that stands alone), the first
// after `lead`, the others after `indent` spaces (as many as `lead` has characters when negative).
QStringList wrapped(const QString &lead, const QString &text, int width, int indent = -1);

} // namespace posenc::ConfigCheckTable
