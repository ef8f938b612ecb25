#pragma once

// Finding the dialogs a window opened without blocking, to answer them.
#include <QApplication>
#include <QList>
#include <QMessageBox>

namespace MessageBoxes {

// The visible message boxes named `name`.
inline QList<QMessageBox *> openBoxes(const char *name)
{
    QList<QMessageBox *> boxes;
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *box = qobject_cast<QMessageBox *>(w);
            box && box->objectName() == QLatin1StringView(name) && box->isVisible())
            boxes.append(box);
    }
    return boxes;
}

// The visible message box named `name`, once it is shown; nothing before.
inline QMessageBox *openBox(const char *name)
{
    const QList<QMessageBox *> boxes = openBoxes(name);
    return boxes.isEmpty() ? nullptr : boxes.front();
}

} // namespace MessageBoxes
