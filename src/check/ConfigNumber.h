#pragma once

#include <QString>

// A number of a config past a double's range, such as 1e400: valid JSON, which Python's json reads
// as an infinity, and which Qt's parser refuses. ModelConfigFile writes a string in its place, this
// marker then the number's text, so that the check can refuse it by its key as the value it is.
// Header-only: the readers (ModelConfigFile) and the check (ConfigValues) share it.
namespace posenc::ConfigNumber {

inline QString overflowMarker()
{
    return QStringLiteral("\x01posenc: a number past a double's range: ");
}

// The number's text when `text` holds one past a double's range, else nothing.
inline QString overflowed(const QString &text)
{
    return text.startsWith(overflowMarker()) ? text.mid(overflowMarker().size()) : QString();
}

} // namespace posenc::ConfigNumber
