#pragma once

#include <QByteArrayView>
#include <QString>

#include <optional>

namespace posenc {

// Qt's JSON parser keeps only the last of repeated keys; a safetensors header must not repeat a
// tensor name, so this scan of the top-level object of *valid* JSON finds the first key that
// appears twice.
std::optional<QString> firstRepeatedTopLevelKey(QByteArrayView json);

} // namespace posenc
