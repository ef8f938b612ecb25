#pragma once

#include <QDialog>
#include <QList>
#include <QString>

namespace posenc {

// Help > Keyboard shortcuts: every shortcut of the window, read from its actions and shortcut
// objects when the dialog opens, so that the list cannot go stale, and the keys of a plot.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT

public:
    struct Entry
    {
        QString keys; // as the platform writes them: "Ctrl+E"
        QString what; // the action's text without its mnemonic: "Export figure"
        friend bool operator==(const Entry &, const Entry &) = default;
    };

    explicit ShortcutsDialog(QWidget *window);

    // Each action of `window` with a shortcut, and each QShortcut that says what it does
    // (its whatsThis), once, sorted by their keys.
    static QList<Entry> entries(const QWidget *window);
    // The keys a plot takes while it has the focus (FigureView::keyPressed).
    static QList<Entry> plotKeys();
};

} // namespace posenc
