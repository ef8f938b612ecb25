#pragma once

#include <QString>

#include <functional>

class QFileDialog;
class QWidget;

namespace posenc {

// The window's file choosers. Each opens without blocking the event loop (QDialog::open) and
// deletes itself when closed; `chosen` gets the path picked, and is not called on Cancel.
namespace FileDialogs {

using Chosen = std::function<void(const QString &path)>;

QFileDialog *askOpen(QWidget *parent, const QString &title, const QString &directory, const QString &filter,
                     Chosen chosen);
// A file to write: the dialog itself asks before choosing an existing file. The name gets the
// extension of the filter chosen (its first "*.ext") when it has none.
QFileDialog *askSave(QWidget *parent, const QString &title, const QString &path, const QString &filter, Chosen chosen);

} // namespace FileDialogs

} // namespace posenc
