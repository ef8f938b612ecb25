#include "ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QRegularExpression>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// "&Export figure…" reads "Export figure".
QString plainText(QString text)
{
    text.remove(QRegularExpression(u"&(?!&)"_s));
    text.replace(u"&&"_s, u"&"_s);
    if (text.endsWith(u"…"_s))
        text.chop(1);
    return text;
}

QString keysText(const QList<QKeySequence> &keys)
{
    QStringList texts;
    for (const QKeySequence &key : keys)
        texts.append(key.toString(QKeySequence::NativeText));
    return texts.join(u", "_s);
}

} // namespace

QList<ShortcutsDialog::Entry> ShortcutsDialog::entries(const QWidget *window)
{
    QList<Entry> list;
    const auto add = [&list](const Entry &entry) {
        if (!entry.keys.isEmpty() && !list.contains(entry))
            list.append(entry);
    };
    for (const QAction *action : window->findChildren<QAction *>()) {
        if (!action->shortcuts().isEmpty())
            add({keysText(action->shortcuts()), plainText(action->text())});
    }
    for (const QShortcut *shortcut : window->findChildren<QShortcut *>()) {
        if (!shortcut->whatsThis().isEmpty())
            add({keysText(shortcut->keys()), shortcut->whatsThis()});
    }
    std::sort(list.begin(), list.end(),
              [](const Entry &a, const Entry &b) { return std::pair(a.keys, a.what) < std::pair(b.keys, b.what); });
    return list;
}

ShortcutsDialog::ShortcutsDialog(QWidget *window)
    : QDialog(window)
{
    setObjectName(u"shortcutsDialog"_s);
    setWindowTitle(tr("Keyboard shortcuts"));
    const QList<Entry> shortcuts = entries(window);
    auto *table = new QTableWidget(static_cast<int>(shortcuts.size()), 2);
    table->setObjectName(u"shortcutsTable"_s);
    table->setHorizontalHeaderLabels({tr("Keys"), tr("Does")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    for (int row = 0; row < shortcuts.size(); ++row) {
        table->setItem(row, 0, new QTableWidgetItem(shortcuts[row].keys));
        table->setItem(row, 1, new QTableWidgetItem(shortcuts[row].what));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto *mouse = new QLabel(tr("With the mouse on a plot: the wheel zooms, a drag pans, Shift and a drag zoom into "
                                "a rectangle, a right click offers the figure's exports."));
    mouse->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(table, 1);
    layout->addWidget(mouse);
    layout->addWidget(buttons);
    resize(520, 560);
}

} // namespace posenc
