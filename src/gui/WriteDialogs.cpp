#include "WriteDialogs.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPointer>

namespace posenc::WriteDialogs {

void confirmOverwrite(QWidget *parent, const QString &path, bool confirmed, const std::function<void()> &write)
{
    if (confirmed || !QFileInfo::exists(path)) {
        write();
        return;
    }
    auto *box = new QMessageBox(QMessageBox::Question, QMessageBox::tr("Replace the file?"),
                                QMessageBox::tr("%1 already exists. Replace it?").arg(path),
                                QMessageBox::Yes | QMessageBox::No, parent);
    box->setObjectName(QLatin1StringView(kOverwriteQuestion));
    box->setTextFormat(Qt::PlainText); // a path may hold markup
    box->setDefaultButton(QMessageBox::No);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::finished, box, [box, write](int) {
        if (box->clickedButton() == box->button(QMessageBox::Yes))
            write();
    });
    box->open();
}

void showWriteError(QWidget *parent, const WriteError &error)
{
    showRefusal(parent, QMessageBox::tr("Could not write the file"), error.toString());
}

void showRefusal(QWidget *parent, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box->setObjectName(QLatin1StringView(kWriteWarning));
    // The text quotes paths and what a file held: as rich text, an "<img src=/dev/zero>" in them
    // would be read without end.
    box->setTextFormat(Qt::PlainText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace posenc::WriteDialogs
