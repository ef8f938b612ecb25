#pragma once

// Finding the dialogs a window opened without blocking, to answer them.
#include <QApplication>
#include <QMessageBox>

namespace MessageBoxes {

// The visible message box named `name`, once it is shown; nothing before.
inline QMessageBox *openBox(const char *name)
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *box = qobject_cast<QMessageBox *>(w);
            box && box->objectName() == QLatin1StringView(name) && box->isVisible())
            return box;
    }
    return nullptr;
}

// How many message boxes named `name` are shown.
inline int openBoxes(const char *name)
{
    int count = 0;
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *box = qobject_cast<QMessageBox *>(w);
            box && box->objectName() == QLatin1StringView(name) && box->isVisible())
            ++count;
    }
    return count;
}

} // namespace MessageBoxes
