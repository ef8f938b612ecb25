#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace posenc {

// What the top level of `bytes` is when it is one JSON value other than an object or an array:
// "null", "true", "false", "the number 42", "a string". JSON (RFC 8259) allows any value there,
// Python's json.load reads one, and Qt's parser refuses it as an "illegal value", which would call
// the file "not JSON". Nothing when the bytes are no such value.
std::optional<QString> jsonTopLevelScalar(const QByteArray &bytes);

} // namespace posenc
