#pragma once

#include "io/AtomicFile.h"

#include <QString>

#include <functional>

class QWidget;

namespace posenc {

// The window's questions and warnings around writing a file. Every box opens without blocking
// the event loop (QDialog::open) and deletes itself when closed.
namespace WriteDialogs {

// Object names, for tests and accessibility.
inline constexpr char kOverwriteQuestion[] = "overwriteQuestion";
inline constexpr char kWriteWarning[] = "writeWarning";

// Runs `write` at once when `path` does not exist or `confirmed` (a save dialog already asked);
// otherwise asks first, No by default, and runs it only on Yes.
void confirmOverwrite(QWidget *parent, const QString &path, bool confirmed, const std::function<void()> &write);
// A warning that names the path and the reason.
void showWriteError(QWidget *parent, const WriteError &error);
// A warning about anything else that stops a write (over the memory budget, nothing in view).
void showRefusal(QWidget *parent, const QString &title, const QString &text);

} // namespace WriteDialogs

} // namespace posenc
