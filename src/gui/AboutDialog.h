#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QMenu;
class QMenuBar;

namespace posenc {

// Help > About PosEnc Explorer: the version, the program's licence and the libraries it
// links with their own licences.
class AboutDialog : public QDialog
{
    Q_OBJECT

public:
    struct Library
    {
        QString name;
        QString version; // empty where the library does not say
        QString licence; // an SPDX expression
        QString role;
    };

    explicit AboutDialog(QWidget *parent = nullptr);

    // The program's licence: GPL-3.0-or-later, as QCustomPlot (GPL-3.0) requires.
    static QString licence();
    static QList<Library> libraries();
};

// Adds the Help menu to `bar`: About PosEnc Explorer and About Qt. Returns it, for the window's
// own entries above them.
QMenu *createHelpMenu(QMenuBar *bar, QWidget *parent);

} // namespace posenc
