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
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace posenc::WriteDialogs
