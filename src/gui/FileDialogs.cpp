#include "FileDialogs.h"

#include <QFileDialog>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace posenc::FileDialogs {

namespace {

QString suffixOf(const QString &filter)
{
    static const QRegularExpression pattern(u"\\*\\.(\\w+)"_s);
    return pattern.match(filter).captured(1);
}

QFileDialog *prepare(QFileDialog *dialog, Chosen chosen)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(dialog, &QFileDialog::fileSelected, dialog, [chosen = std::move(chosen)](const QString &path) {
        if (!path.isEmpty())
            chosen(path);
    });
    dialog->open();
    return dialog;
}

} // namespace

QFileDialog *askOpen(QWidget *parent, const QString &title, const QString &directory, const QString &filter,
                     Chosen chosen)
{
    auto *dialog = new QFileDialog(parent, title, directory, filter);
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    return prepare(dialog, std::move(chosen));
}

QFileDialog *askSave(QWidget *parent, const QString &title, const QString &path, const QString &filter, Chosen chosen)
{
    auto *dialog = new QFileDialog(parent, title, path, filter);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(suffixOf(filter));
    QObject::connect(dialog, &QFileDialog::filterSelected, dialog,
                     [dialog](const QString &selected) { dialog->setDefaultSuffix(suffixOf(selected)); });
    return prepare(dialog, std::move(chosen));
}

} // namespace posenc::FileDialogs
