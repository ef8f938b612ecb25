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

QList<ShortcutsDialog::Entry> ShortcutsDialog::plotKeys()
{
    const auto keys = [](std::initializer_list<QKeySequence> list) {
        QStringList texts;
        for (const QKeySequence &key : list)
            texts.append(key.toString(QKeySequence::NativeText));
        return texts.join(u", "_s);
    };
    return {
        {tr("Tab"), tr("Move the focus to the next plot (a frame marks it)")},
        {keys({Qt::Key_Left, Qt::Key_Right, Qt::Key_Up, Qt::Key_Down}), tr("Pan by a tenth of the plot")},
        {keys({Qt::Key_Plus, Qt::Key_Minus}), tr("Zoom in, zoom out")},
        {keys({Qt::Key_0}), tr("Show the whole figure again")},
        {keys({Qt::SHIFT | Qt::Key_Left, Qt::SHIFT | Qt::Key_Right, Qt::SHIFT | Qt::Key_Up, Qt::SHIFT | Qt::Key_Down}),
         tr("Move the cursor over the cells: the status bar reads the cell, a screen reader says it")},
    };
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
    const QList<Entry> plot = plotKeys();
    auto *plotTable = new QTableWidget(static_cast<int>(plot.size()), 2);
    plotTable->setObjectName(u"plotKeysTable"_s);
    plotTable->setAccessibleName(tr("The keys of a plot with the focus"));
    plotTable->setHorizontalHeaderLabels({tr("On a plot"), tr("Does")});
    plotTable->verticalHeader()->hide();
    plotTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    plotTable->setSelectionMode(QAbstractItemView::NoSelection);
    for (int row = 0; row < plot.size(); ++row) {
        plotTable->setItem(row, 0, new QTableWidgetItem(plot[row].keys));
        plotTable->setItem(row, 1, new QTableWidgetItem(plot[row].what));
    }
    plotTable->resizeColumnsToContents();
    plotTable->horizontalHeader()->setStretchLastSection(true);
    plotTable->setMaximumHeight(plotTable->verticalHeader()->length() + plotTable->horizontalHeader()->height()
                                + 2 * plotTable->frameWidth());
    auto *mouse = new QLabel(tr("With the mouse on a plot: the wheel zooms, a drag pans, Shift and a drag zoom into "
                                "a rectangle, a right click offers the figure's exports."));
    mouse->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(table, 1);
    layout->addWidget(plotTable);
    layout->addWidget(mouse);
    layout->addWidget(buttons);
    resize(560, 680);
}

} // namespace posenc
