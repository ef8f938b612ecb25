// The window as a screen reader and a keyboard meet it: every control the Tab key reaches has an
// accessible name (its label as a buddy, its text, or a name of its own), every combo box is
// named by its label and valued by its entry; the plots are charts, take Tab focus, arrow keys
// pan, + and - zoom, 0 resets, and Shift with the arrows moves a cursor over the cells whose
// readout the status bar shows and a screen reader is told; Help > Keyboard shortcuts lists those
// keys.
#include "core/FamilySpec.h"
#include "gui/AboutDialog.h"
#include "gui/ControlPanel.h"
#include "gui/ExportController.h"
#include "gui/FigureExportDialog.h"
#include "gui/FigureView.h"
#include "gui/LessonController.h"
#include "gui/MainWindow.h"
#include "gui/ModelConfigDialog.h"
#include "gui/ShortcutsDialog.h"
#include "gui/StartPanel.h"
#include "gui/TableCheckDialog.h"
#include "gui/UserGuideDialog.h"
#include "gui/WindowMenus.h"
#include "io/NpyWriter.h"
#include "support/TestMain.h"
#include "support/TestShots.h"
#include "support/WindowFixture.h"
#include "support/WindowViews.h"

#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextEdit>

namespace tst_accessibility {
using namespace Qt::StringLiterals;
using namespace posenc;
using namespace WindowViews;
using namespace WindowFixture;

namespace {

// The letter after a text's '&', lower-cased, or nothing.
QChar mnemonicOf(const QString &text)
{
    const qsizetype at = text.indexOf(u'&');
    return at >= 0 && at + 1 < text.size() ? text.at(at + 1).toLower() : QChar();
}

QString accessibleName(QWidget *widget)
{
    QAccessibleInterface *face = QAccessible::queryAccessibleInterface(widget);
    return face ? face->text(QAccessible::Name).trimmed() : QString();
}

// What a combo box's label says: the text of the label whose buddy it is, without its '&', or
// the name it was given where no label stands beside it.
QString labelOf(const QComboBox *combo, const QWidget *window)
{
    for (const QLabel *label : window->findChildren<QLabel *>()) {
        if (label->buddy() == combo)
            return QString(label->text()).remove(u'&').trimmed();
    }
    return combo->accessibleName();
}

// Every combo box of `window` shown, named by its label: the failures, and how many were checked.
std::pair<QStringList, int> comboNames(QWidget *window)
{
    QStringList wrong;
    int checked = 0;
    for (QComboBox *combo : window->findChildren<QComboBox *>()) {
        if (!combo->isVisibleTo(window))
            continue;
        ++checked;
        QAccessibleInterface *face = QAccessible::queryAccessibleInterface(combo);
        const QString label = labelOf(combo, window);
        const QString name = face ? face->text(QAccessible::Name) : QString();
        if (label.isEmpty() || name != label || face->role() != QAccessible::ComboBox
            || face->text(QAccessible::Value) != combo->currentText())
            wrong.append(u"%1: named '%2', its label '%3', its entry '%4'"_s.arg(combo->objectName(), name, label,
                                                                                 combo->currentText()));
    }
    return {wrong, checked};
}

// The controls of `window`'s focus chain that Tab reaches without an accessible name, and how many
// it reaches.
std::pair<QStringList, int> unnamedInFocusChain(QWidget *window)
{
    QStringList unnamed;
    int reached = 0;
    QWidget *start = window->nextInFocusChain();
    QWidget *w = start;
    do {
        if (w->isVisible() && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus) && w->window() == window) {
            ++reached;
            if (accessibleName(w).isEmpty())
                unnamed.append(QString::fromLatin1(w->metaObject()->className()) + u" "_s + w->objectName());
        }
        w = w->nextInFocusChain();
    } while (w && w != start);
    return {unnamed, reached};
}

// Markup a screen reader would read out: a tag (<b>, </i>, <br/>) or an entity (&nbsp;, &#8722;).
bool hasMarkup(const QString &text)
{
    static const QRegularExpression markup(
        uR"(</?[A-Za-z][A-Za-z0-9]*(\s[^<>]*)?/?>|&(#[0-9]+|#x[0-9A-Fa-f]+|[A-Za-z]+);)"_s);
    return markup.match(text).hasMatch();
}

// The roles a user fills in, chooses or presses: each needs a name of its own.
bool isField(QAccessible::Role role)
{
    switch (role) {
    case QAccessible::EditableText:
    case QAccessible::SpinBox:
    case QAccessible::ComboBox:
    case QAccessible::CheckBox:
    case QAccessible::RadioButton:
    case QAccessible::Slider:
    case QAccessible::PushButton:
    case QAccessible::ButtonMenu:
    case QAccessible::ButtonDropDown:
    case QAccessible::Chart:
        return true;
    default:
        return false;
    }
}

struct TreeWalk
{
    int interfaces = 0;
    int described = 0;
    int fields = 0;
    QStringList markup; // texts with markup: role, object, which text, the text
    QStringList unnamed; // fields without a name
};

QString whoIs(QAccessibleInterface *face)
{
    const QObject *object = face->object();
    return u"%1 %2"_s.arg(object ? QString::fromLatin1(object->metaObject()->className()) : u"?"_s,
                          object ? object->objectName() : QString());
}

// Every interface shown under `face`, as a screen reader's bridge walks them: child by child.
void walk(QAccessibleInterface *face, TreeWalk &found, int depth = 0)
{
    if (!face || !face->isValid() || face->state().invisible || depth > 64)
        return;
    ++found.interfaces;
    const std::pair<QAccessible::Text, const char *> texts[] = {{QAccessible::Name, "name"},
                                                                {QAccessible::Description, "description"},
                                                                {QAccessible::Value, "value"},
                                                                {QAccessible::Help, "help"}};
    // A document's value is its text, which may quote markup as what it says (the guide's
    // "NAME<TAB>TITLE"): markup is what its plain text would not hold.
    const auto *document = qobject_cast<const QTextEdit *>(face->object());
    for (const auto &[which, word] : texts) {
        const QString text = face->text(which);
        if (document && which == QAccessible::Value && text == document->toPlainText())
            continue;
        if (which == QAccessible::Description && !text.isEmpty())
            ++found.described;
        if (hasMarkup(text))
            found.markup.append(u"%1 (%2): %3: %4"_s.arg(whoIs(face))
                                    .arg(int(face->role()))
                                    .arg(QString::fromLatin1(word), text.left(120)));
    }
    if (isField(face->role())) {
        ++found.fields;
        if (face->text(QAccessible::Name).trimmed().isEmpty())
            found.unnamed.append(u"%1 (role %2)"_s.arg(whoIs(face)).arg(int(face->role())));
    }
    for (int i = 0; i < face->childCount(); ++i)
        walk(face->child(i), found, depth + 1);
}

} // namespace

class TestAccessibility : public QObject
{
    Q_OBJECT

private slots:
    void everyControlInTheFocusChainHasAName();
    void theTreeSaysPlainTextAndNamesEveryField_data();
    void theTreeSaysPlainTextAndNamesEveryField();
    void theDialogsSayPlainTextAndNameEveryField();
    void theKeyboardZoomsAHeatmapAndReadsACell();
    void eachParameterLabelHasItsOwnMnemonic_data();
    void eachParameterLabelHasItsOwnMnemonic();
    void theCheckWindowsAreNamedAndTheirKeysDistinct();
    void everyComboBoxIsNamedByItsLabel_data();
    void everyComboBoxIsNamedByItsLabel();
    void thePlotsAreChartsThatSayTheKeyboardsCell();
    void theShortcutsListThePlotsKeys();
};

void TestAccessibility::everyComboBoxIsNamedByItsLabel_data()
{
    // The parameters' choosers differ by family: the sinusoid's, RoPE's, T5's.
    QTest::addColumn<int>("encoding");
    QTest::newRow("sinusoidal") << static_cast<int>(Encoding::Sinusoidal);
    QTest::newRow("rope") << static_cast<int>(Encoding::Rope);
    QTest::newRow("t5") << static_cast<int>(Encoding::T5);
}

// A screen reader names a combo box by its label ("layout, combo box, interleaved"), not by its
// entry: Qt names it by its entry on Linux, which left 12 of 13 announced as "interleaved",
// "exact", "sum"...
void TestAccessibility::everyComboBoxIsNamedByItsLabel()
{
    QFETCH(int, encoding);
    Params params = small();
    params.encoding = static_cast<Encoding>(encoding);
    params.rope.headDim = 32;
    MainWindow window(params, nullptr);
    window.resize(1500, 950);
    QVERIFY(WindowFixture::shown(window));
    const auto [wrong, checked] = comboNames(&window);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u"\n"_s)));
    QVERIFY2(checked >= 10, qPrintable(QString::number(checked)));
    // And the Export figure dialog's.
    FigureExportDialog *dialog = window.exports()->openFigureDialog();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    const auto [dialogWrong, dialogChecked] = comboNames(dialog);
    QVERIFY2(dialogWrong.isEmpty(), qPrintable(dialogWrong.join(u"\n"_s)));
    QVERIFY(dialogChecked >= 4);
    dialog->close();
}

// A plot is a chart named after its figure; the keyboard's cursor changes its description to the
// cell's readout, with the event that tells a screen reader so.
void TestAccessibility::thePlotsAreChartsThatSayTheKeyboardsCell()
{
    MainWindow window(small(), nullptr);
    window.resize(1500, 950);
    QVERIFY(WindowFixture::shown(window));
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
    QCustomPlot *plot = heatmapView(window)->plot();
    QAccessibleInterface *face = QAccessible::queryAccessibleInterface(plot);
    QVERIFY(face);
    QCOMPARE(face->role(), QAccessible::Chart);
    QCOMPARE(face->text(QAccessible::Name), u"Heatmap plot"_s);
    // The maximise buttons say what they do, not their glyph.
    for (QWidget *button : window.findChildren<QWidget *>(u"maximizeButton"_s))
        QCOMPARE(accessibleName(button), u"Maximise or restore this view"_s);
    // Offscreen, Qt has no bridge to send the event to (QAccessible::isActive() is false): the
    // description is what a screen reader reads when told it changed.
    plot->setFocus();
    QTest::keyClick(plot, Qt::Key_Right, Qt::ShiftModifier);
    auto *readout = window.findChild<QLabel *>(u"hoverReadout"_s);
    QTRY_VERIFY(!readout->text().isEmpty());
    QCOMPARE(face->text(QAccessible::Description), readout->text());
    const QString first = readout->text();
    QTest::keyClick(plot, Qt::Key_Right, Qt::ShiftModifier);
    QTRY_VERIFY(readout->text() != first); // the next column
    QCOMPARE(face->text(QAccessible::Description), readout->text());
}

void TestAccessibility::theShortcutsListThePlotsKeys()
{
    MainWindow window(small(), nullptr);
    ShortcutsDialog dialog(&window);
    const auto *table = dialog.findChild<QTableWidget *>(u"plotKeysTable"_s);
    QVERIFY(table);
    QStringList keys;
    for (int row = 0; row < table->rowCount(); ++row)
        keys.append(table->item(row, 0)->text());
    const QString all = keys.join(u"; "_s);
    for (const QString &key : {u"Tab"_s, u"Left"_s, u"+"_s, u"-"_s, u"0"_s, u"Shift+Left"_s})
        QVERIFY2(all.contains(key), qPrintable(key + u" not in "_s + all));
}

// File's actions each have their own letter; the check windows' controls are named, and their
// buttons' letters differ from each other's.
void TestAccessibility::theCheckWindowsAreNamedAndTheirKeysDistinct()
{
    MainWindow window(small(), nullptr);
    QVERIFY(WindowFixture::shown(window));
    QMenu *file = window.menuBar()->actions().constFirst()->menu();
    QVERIFY(file);
    QHash<QChar, QString> fileLetters;
    for (QAction *action : file->actions()) {
        const QChar letter = mnemonicOf(action->text());
        if (letter.isNull())
            continue;
        QVERIFY2(!fileLetters.contains(letter),
                 qPrintable(action->text() + u" and "_s + fileLetters.value(letter) + u" share "_s + letter));
        fileLetters.insert(letter, action->text());
    }
    QVERIFY(fileLetters.contains(u't') && fileLetters.contains(u'c'));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"pe.npy"_s);
    RowMatrixXf table(64, 16);
    for (int p = 0; p < 64; ++p)
        for (int c = 0; c < 16; ++c) {
            const double w = std::exp(-2.0 * double(c / 2) * std::log(10000.0) / 16.0);
            table(p, c) = float(c % 2 == 0 ? std::sin(p * w) : std::cos(p * w));
        }
    QVERIFY(!writeNpy(path, table));
    TableCheckDialog *check = window.menus()->checkTable(path);
    QVERIFY(check);
    QTRY_VERIFY_WITH_TIMEOUT(!check->isChecking(), 60000);
    QVERIFY(check->match());
    const auto [unnamed, reached] = unnamedInFocusChain(check);
    QVERIFY2(reached >= 5, qPrintable(QString::number(reached)));
    QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(u"\n"_s)));
    QHash<QChar, QString> letters;
    for (QPushButton *button : check->findChildren<QPushButton *>()) {
        const QChar letter = mnemonicOf(button->text());
        QVERIFY2(!letter.isNull(), qPrintable(button->text()));
        QVERIFY2(!letters.contains(letter), qPrintable(button->text() + u" and "_s + letters.value(letter)));
        letters.insert(letter, button->text());
    }
    // Alt+R is the reference's button.
    QVERIFY(check->referenceButton()->isEnabled());
    QCOMPARE(mnemonicOf(check->referenceButton()->text()), QChar(u'r'));

    ModelConfigDialog *config
        = window.menus()->openModelConfig(QStringLiteral(POSENC_CONFIGS) + u"/gemma-3-1b-it.json"_s);
    QTRY_VERIFY_WITH_TIMEOUT(!config->isChecking(), 60000);
    QVERIFY(config->check());
    const auto [configUnnamed, configReached] = unnamedInFocusChain(config);
    QVERIFY2(configReached >= 3, qPrintable(QString::number(configReached)));
    QVERIFY2(configUnnamed.isEmpty(), qPrintable(configUnnamed.join(u"\n"_s)));
}

void TestAccessibility::theTreeSaysPlainTextAndNamesEveryField_data()
{
    QTest::addColumn<int>("encoding");
    for (const FamilySpec &family : Families::all())
        QTest::newRow(qPrintable(family.word)) << static_cast<int>(family.encoding);
}

// Each family's page of the window as a screen reader's bridge walks it, interface by interface:
// no name, description or value holds markup (139 of 740 descriptions were a tooltip's HTML,
// "<b>d_model</b>&nbsp;..."), and every field a user fills in, chooses or presses has a name.
void TestAccessibility::theTreeSaysPlainTextAndNamesEveryField()
{
    QFETCH(int, encoding);
    MainWindow window(small(), nullptr);
    window.resize(1500, 950);
    QVERIFY(WindowFixture::shown(window));
    // The family as a user picks it: a preset of it where there is one, else the encoding alone.
    ControlPanel *panel = window.controlPanel();
    const auto preset = std::find_if(panel->presets().begin(), panel->presets().end(), [&](const Preset &p) {
        return p.params.value(u"encoding"_s) == Families::word(static_cast<Encoding>(encoding));
    });
    Params params = small();
    if (preset != panel->presets().end()) {
        QVERIFY(panel->choosePreset(int(preset - panel->presets().begin())));
    } else {
        params.encoding = static_cast<Encoding>(encoding);
        panel->setParams(params);
    }
    QTRY_COMPARE(static_cast<int>(panel->params().encoding), encoding);
    QTRY_VERIFY(window.isUpToDate());
    TreeWalk found;
    walk(QAccessible::queryAccessibleInterface(&window), found);
    qInfo("%d interfaces, %d with a description, %d fields", found.interfaces, found.described, found.fields);
    QVERIFY(found.fields > 20);
    QVERIFY(found.described > 20);
    QVERIFY2(found.markup.isEmpty(),
             qPrintable(u"%1 texts with markup:\n"_s.arg(found.markup.size()) + found.markup.join(u'\n')));
    QVERIFY2(found.unnamed.isEmpty(), qPrintable(u"fields without a name:\n"_s + found.unnamed.join(u'\n')));
}

// The windows over the main one, walked as the main one is: a lesson's side panel, the start
// panel, the Export figure dialog, the check windows, the shortcuts, About and the user guide.
void TestAccessibility::theDialogsSayPlainTextAndNameEveryField()
{
    MainWindow window(small(), nullptr);
    window.resize(1500, 950);
    QVERIFY(WindowFixture::shown(window));
    QStringList wrong;
    int fields = 0;
    const auto walkShown = [&](const QString &what, QWidget *shown) {
        QVERIFY2(shown, qPrintable(what));
        QVERIFY(WindowFixture::shown(*shown));
        TreeWalk found;
        walk(QAccessible::queryAccessibleInterface(shown), found);
        qInfo("%s: %d interfaces, %d fields", qPrintable(what), found.interfaces, found.fields);
        fields += found.fields;
        for (const QString &text : std::as_const(found.markup))
            wrong.append(what + u": markup in "_s + text);
        for (const QString &field : std::as_const(found.unnamed))
            wrong.append(what + u": no name for "_s + field);
    };
    QVERIFY(window.lessons()->open(u"rope-scaling"_s));
    QTRY_VERIFY(window.isUpToDate());
    walkShown(u"the window in a lesson"_s, &window);
    window.lessons()->leave();
    walkShown(u"the start panel"_s, window.lessons()->openStartPanel());
    window.lessons()->startPanel()->close();
    FigureExportDialog *exportDialog = window.exports()->openFigureDialog();
    walkShown(u"the Export figure dialog"_s, exportDialog);
    exportDialog->close();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"pe.npy"_s);
    RowMatrixXf table(32, 8);
    for (int p = 0; p < 32; ++p)
        for (int c = 0; c < 8; ++c)
            table(p, c) = float(c % 2 == 0 ? std::sin(p * std::exp(-double(c) * std::log(1e4) / 8.0))
                                           : std::cos(p * std::exp(-double(c - 1) * std::log(1e4) / 8.0)));
    QVERIFY(!writeNpy(path, table));
    TableCheckDialog *check = window.menus()->checkTable(path);
    QTRY_VERIFY_WITH_TIMEOUT(check && !check->isChecking(), 60000);
    walkShown(u"the table's check"_s, check);
    ModelConfigDialog *config
        = window.menus()->openModelConfig(QStringLiteral(POSENC_CONFIGS) + u"/Meta-Llama-3.1-8B.json"_s);
    QTRY_VERIFY_WITH_TIMEOUT(config && !config->isChecking(), 60000);
    walkShown(u"the config's check"_s, config);
    ShortcutsDialog shortcuts(&window);
    walkShown(u"the shortcuts"_s, &shortcuts);
    AboutDialog about(&window);
    walkShown(u"About"_s, &about);
    UserGuideDialog guide(&window);
    walkShown(u"the user guide"_s, &guide);
    QVERIFY(fields > 20);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
}

void TestAccessibility::everyControlInTheFocusChainHasAName()
{
    MainWindow window(small(), nullptr);
    window.resize(1500, 950);
    QVERIFY(WindowFixture::shown(window));
    QStringList unnamed;
    int reached = 0;
    QWidget *start = window.nextInFocusChain();
    QWidget *w = start;
    do {
        if (w->isVisible() && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus) && w->window() == &window) {
            ++reached;
            if (accessibleName(w).isEmpty())
                unnamed.append(QString::fromLatin1(w->metaObject()->className()) + u" "_s + w->objectName());
        }
        w = w->nextInFocusChain();
    } while (w && w != start);
    qInfo("%d controls in the focus chain", reached);
    QVERIFY(reached > 20);
    // The plots are in it, named after their figures.
    QStringList plots;
    for (FigureView *view : window.views())
        plots.append(accessibleName(view->plot()));
    QVERIFY2(plots.contains(u"Heatmap plot"_s), qPrintable(plots.join(u", "_s)));
    QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(u"\n"_s)));
}

// The workflow without a mouse: Tab to the heatmap, zoom in with +, pan with the arrows, step a
// cursor over the cells with Shift and the arrows while the status bar reads each cell, 0 back.
void TestAccessibility::theKeyboardZoomsAHeatmapAndReadsACell()
{
    MainWindow window(small(), nullptr);
    window.resize(1500, 950);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
    FigureView *view = heatmapView(window);
    QCustomPlot *plot = view->plot();
    // Tab reaches the plot.
    QWidget *w = window.focusWidget() ? window.focusWidget() : &window;
    for (int i = 0; i < 200 && QApplication::focusWidget() != plot; ++i)
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : w, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), plot);
    QCPAxis *positions = plot->axisRect()->axis(QCPAxis::atLeft);
    QCPAxis *columns = plot->axisRect()->axis(QCPAxis::atBottom);
    const QCPRange whole = positions->range();
    QTest::keyClick(plot, Qt::Key_Plus);
    QVERIFY(std::abs(positions->range().size() - 0.8 * whole.size()) < 1e-9 * whole.size());
    QCOMPARE(positions->range().center(), whole.center());
    const QCPRange zoomed = positions->range();
    QTest::keyClick(plot, Qt::Key_Down);
    QVERIFY(positions->range().size() == zoomed.size() || std::abs(positions->range().size() - zoomed.size()) < 1e-9);
    QVERIFY(positions->range().center() != zoomed.center());
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
    // The readout follows a keyboard cursor, a cell a step.
    auto *readout = window.findChild<QLabel *>(u"hoverReadout"_s);
    QVERIFY(readout);
    QTest::keyClick(plot, Qt::Key_Right, Qt::ShiftModifier);
    QTRY_VERIFY(!readout->text().isEmpty());
    const QString first = readout->text();
    QVERIFY2(first.contains(u"PE"_s), qPrintable(first));
    QTest::keyClick(plot, Qt::Key_Right, Qt::ShiftModifier);
    QTRY_VERIFY(readout->text() != first); // the next column
    QTRY_VERIFY_WITH_TIMEOUT(window.isSettled(), 60000);
    qInfo("%s", qPrintable(TestShots::save(window.grab(), u"keyboard-cell"_s)));
    QTest::keyClick(plot, Qt::Key_0);
    QTRY_COMPARE(positions->range(), whole);
    QVERIFY(columns->range().size() > 0);
}

// Alt and a letter reach every parameter: each label of the control panel has a mnemonic, none
// shared with the menu bar or with another label shown at the same time (the shared groups and
// one family's), and it moves the focus to the label's control.
void TestAccessibility::eachParameterLabelHasItsOwnMnemonic_data()
{
    // Each family's labels replace another's beside the shared ones.
    QTest::addColumn<int>("encoding");
    QTest::newRow("sinusoidal") << static_cast<int>(Encoding::Sinusoidal);
    QTest::newRow("none") << static_cast<int>(Encoding::None);
    QTest::newRow("rope") << static_cast<int>(Encoding::Rope);
}

void TestAccessibility::eachParameterLabelHasItsOwnMnemonic()
{
    QFETCH(int, encoding);
    Params params = small();
    params.encoding = static_cast<Encoding>(encoding);
    params.rope.headDim = 32; // within d_model 40
    MainWindow window(params, nullptr);
    window.resize(1500, 950);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QString menuLetters;
    for (QAction *menu : window.menuBar()->actions())
        menuLetters += mnemonicOf(menu->text());
    QVERIFY2(menuLetters.size() >= 4, qPrintable(menuLetters));
    QList<QLabel *> labels;
    for (QLabel *label : window.findChildren<QLabel *>())
        if (label->buddy() && label->objectName().endsWith(u"Label"_s))
            labels.append(label);
    QVERIFY(labels.size() > 15);
    QHash<QChar, QString> shown; // letter -> the visible label that has it
    QList<QLabel *> without;
    int visible = 0;
    for (QLabel *label : std::as_const(labels)) {
        if (!label->isVisibleTo(&window))
            continue;
        ++visible;
        const QChar letter = mnemonicOf(label->text());
        if (letter.isNull()) {
            without.append(label);
            continue;
        }
        QVERIFY2(!menuLetters.contains(letter), qPrintable(label->objectName() + u" takes the menu bar's "_s + letter));
        QVERIFY2(!shown.contains(letter),
                 qPrintable(label->objectName() + u" and "_s + shown.value(letter) + u" share "_s + letter));
        shown.insert(letter, label->objectName());
    }
    // A label goes without only when every letter of it is taken already.
    for (QLabel *label : std::as_const(without))
        for (QChar c : label->text().toLower())
            if (c.isLetter() && c.unicode() < 128)
                QVERIFY2(shown.contains(c) || menuLetters.contains(c) || c == u'p',
                         qPrintable(label->objectName() + u" could have had "_s + c));
    // Three in four have one, or, where the labels outnumber the letters they offer (RoPE's 17
    // beside the shared ones), nine in ten of those letters are somebody's.
    QSet<QChar> offered;
    for (QLabel *label : std::as_const(labels))
        if (label->isVisibleTo(&window))
            for (QChar c : label->text().toLower())
                if (c.isLetter() && c.unicode() < 128 && !menuLetters.contains(c) && c != u'p')
                    offered.insert(c);
    qInfo("%d of %d labels shown have a mnemonic; %d letters offered", int(shown.size()), visible, int(offered.size()));
    QVERIFY(shown.size() >= std::min(visible * 3 / 4, int(offered.size()) * 9 / 10));
    // Alt+letter of d_model's label focuses its spin box.
    auto *dModel = window.findChild<QLabel *>(u"dModelLabel"_s);
    QVERIFY(dModel);
    const QChar letter = mnemonicOf(dModel->text());
    QTest::keyClick(&window, static_cast<Qt::Key>(Qt::Key_A + (letter.unicode() - u'a')), Qt::AltModifier);
    QTRY_VERIFY(QApplication::focusWidget() == dModel->buddy()
                || dModel->buddy()->isAncestorOf(QApplication::focusWidget()));
}

POSENC_TEST_MAIN(TestAccessibility)
} // namespace tst_accessibility
#include "tst_accessibility.moc"
