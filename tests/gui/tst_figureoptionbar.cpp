// A view's option bar (FigureOptionBar): a text option's field shows its placeholder, the name and
// default an empty field stands for, whole; in a quarter view of the smallest screen the figure
// chooser still names its figure whole.
#include "gui/FigureOptionBar.h"
#include "support/TestMain.h"

#include "core/Params.h"
#include "render/FigureRegistry.h"
#include "render/data/FigureModel.h"
#include "render/data/FigureState.h"
#include "render/data/FigureText.h"

#include "support/WindowFixture.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTest>

namespace tst_figureoptionbar {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestFigureOptionBar : public QObject
{
    Q_OBJECT

private slots:
    void textFieldsShowTheirPlaceholderWhole_data();
    void textFieldsShowTheirPlaceholderWhole();
    void theChooserNamesItsFigureInAQuarterView_data();
    void theChooserNamesItsFigureInAQuarterView();
    void everyOptionIsWholeInAQuarterView_data() { theChooserNamesItsFigureInAQuarterView_data(); }
    void everyOptionIsWholeInAQuarterView();
    void theNoteReadsWholeInAnyView_data();
    void theNoteReadsWholeInAnyView();
};

void TestFigureOptionBar::textFieldsShowTheirPlaceholderWhole_data()
{
    QTest::addColumn<QString>("figure");
    int rows = 0;
    for (const FigureDescriptor *figure : FigureRegistry::all()) {
        for (const FigureOption &option : figure->model().options()) {
            if (option.kind == FigureOption::Kind::Text && option.inWindow) {
                QTest::newRow(qPrintable(figure->name() + u' ' + option.key)) << figure->name();
                ++rows;
                break;
            }
        }
    }
    QVERIFY(rows >= 2); // families' query and the curves' dims at least
}

void TestFigureOptionBar::textFieldsShowTheirPlaceholderWhole()
{
    QFETCH(QString, figure);
    const FigureDescriptor *descriptor = FigureRegistry::find(figure);
    QVERIFY(descriptor);
    FigureOptionBar bar(true);
    bar.resize(1800, 40);
    bar.setFigure(*descriptor, FigureState(), Params());
    QVERIFY(WindowFixture::shown(bar));
    const QList<QLineEdit *> edits = bar.findChildren<QLineEdit *>();
    int checked = 0;
    for (const QLineEdit *edit : edits) {
        if (edit->placeholderText().isEmpty())
            continue;
        const int needed = edit->fontMetrics().horizontalAdvance(edit->placeholderText());
        const QMargins margins = edit->textMargins();
        const int room
            = edit->contentsRect().width() - margins.left() - margins.right() - 4; // QLineEdit's own 2 px a side
        QVERIFY2(room >= needed,
                 qPrintable(u"%1: %2 px for '%3', which needs %4"_s.arg(edit->objectName())
                                .arg(room)
                                .arg(edit->placeholderText())
                                .arg(needed)));
        ++checked;
    }
    QVERIFY(checked >= 1);
}

void TestFigureOptionBar::theChooserNamesItsFigureInAQuarterView_data()
{
    QTest::addColumn<QString>("figure");
    for (const FigureDescriptor *figure : FigureRegistry::all())
        QTest::newRow(qPrintable(figure->name())) << figure->name();
}

// A quarter view of the window at 1366 x 768 is 413 px wide (measured on its screenshot). With
// the heatmap's four options beside it, its chooser read "Heatm" when every box asked for its
// longest entry's width and gave up the same share.
void TestFigureOptionBar::theChooserNamesItsFigureInAQuarterView()
{
    QFETCH(QString, figure);
    const FigureDescriptor *descriptor = FigureRegistry::find(figure);
    QVERIFY(descriptor);
    FigureOptionBar bar(true);
    bar.resize(413, 40);
    bar.setFigure(*descriptor, FigureState(), Params());
    QVERIFY(WindowFixture::shown(bar));
    const auto *chooser = bar.findChild<QComboBox *>(u"figureBox"_s);
    QVERIFY(chooser);
    QCOMPARE(chooser->currentText(), descriptor->model().title());
    const QFontMetrics metrics = chooser->fontMetrics();
    const int needed = metrics.horizontalAdvance(chooser->currentText());
    // Titles up to 20 average characters are shown whole; a longer one may give up its end.
    if (needed > 20 * metrics.averageCharWidth())
        return;
    QStyleOptionComboBox option;
    option.initFrom(chooser);
    option.rect = chooser->rect();
    // QCommonStyle draws the entry 1 px in from each side of the edit field.
    const int room
        = chooser->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, chooser).width()
        - 2;
    QVERIFY2(room >= needed,
             qPrintable(u"'%1' needs %2 px, its field has %3"_s.arg(chooser->currentText()).arg(needed).arg(room)));
}

namespace {

// The room a box's current entry is drawn in: its edit field, less the 1 px a side QCommonStyle
// draws the entry in from it.
int entryRoom(const QComboBox *box)
{
    QStyleOptionComboBox option;
    option.initFrom(box);
    option.rect = box->rect();
    return box->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, box).width() - 2;
}

} // namespace

// In the same quarter view every option's control shows its text whole: a box its current entry,
// a switch its label (a check box's label is cut where it is narrower than it asks), a field
// whatever the user typed or, empty, its placeholder. Five figures' bars (layer-stack,
// position-ids, document-distance, compose-compare, rope-rotation) elided one of them at 413 px.
void TestFigureOptionBar::everyOptionIsWholeInAQuarterView()
{
    QFETCH(QString, figure);
    const FigureDescriptor *descriptor = FigureRegistry::find(figure);
    QVERIFY(descriptor);
    // As a view of the window changes figure: the bar shown with another's controls first, and
    // with the screen's note the view sets once drawn.
    FigureOptionBar bar(true);
    bar.resize(413, 40);
    bar.setFigure(*FigureRegistry::find(u"heatmap"_s), FigureState(), Params());
    QVERIFY(WindowFixture::shown(bar));
    bar.setFigure(*descriptor, FigureState(), Params());
    bar.setNote(u"each pixel averages 1 position and ~3 columns"_s);
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    QStringList cut;
    if (const auto *chooser = bar.findChild<QComboBox *>(u"figureBox"_s)) {
        const int needed = chooser->fontMetrics().horizontalAdvance(chooser->currentText());
        // As above: a title up to 20 average characters whole.
        if (needed <= 20 * chooser->fontMetrics().averageCharWidth() && entryRoom(chooser) < needed)
            cut << u"the chooser's '%1' needs %2 px, has %3"_s.arg(chooser->currentText())
                       .arg(needed)
                       .arg(entryRoom(chooser));
    }
    for (const QComboBox *box : bar.findChildren<QComboBox *>()) {
        if (box->objectName() == u"figureBox"_s || !box->isVisibleTo(&bar))
            continue;
        const int needed = box->fontMetrics().horizontalAdvance(box->currentText());
        if (entryRoom(box) < needed)
            cut << u"%1 '%2' needs %3 px, has %4"_s.arg(box->objectName(), box->currentText())
                       .arg(needed)
                       .arg(entryRoom(box));
    }
    for (const QCheckBox *check : bar.findChildren<QCheckBox *>())
        if (check->isVisibleTo(&bar) && check->width() < check->sizeHint().width())
            cut << u"%1 '%2' needs %3 px, has %4"_s.arg(check->objectName(), check->text())
                       .arg(check->sizeHint().width())
                       .arg(check->width());
    for (const QLineEdit *edit : bar.findChildren<QLineEdit *>()) {
        if (!edit->isVisibleTo(&bar) || qobject_cast<const QComboBox *>(edit->parentWidget()))
            continue; // a box's own line edit is none of these
        const QString shown = edit->text().isEmpty() ? edit->placeholderText() : edit->text();
        const QMargins margins = edit->textMargins();
        const int room = edit->contentsRect().width() - margins.left() - margins.right() - 4;
        if (room < edit->fontMetrics().horizontalAdvance(shown))
            cut << u"%1 '%2' needs %3 px, has %4"_s.arg(edit->objectName(), shown)
                       .arg(edit->fontMetrics().horizontalAdvance(shown))
                       .arg(room);
    }
    // Nothing reaches past the bar's right edge either.
    for (const QWidget *child : bar.findChildren<QWidget *>()) {
        if (!child->isVisibleTo(&bar) || child->isWindow())
            continue;
        const int right = child->mapTo(&bar, QPoint(child->width() - 1, 0)).x();
        if (right > bar.width() - 1)
            cut << u"%1 ends at %2 of %3 px"_s.arg(child->objectName()).arg(right).arg(bar.width());
    }
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(u"; "_s)));
}

void TestFigureOptionBar::theNoteReadsWholeInAnyView_data()
{
    QTest::addColumn<QString>("figure");
    QTest::addColumn<int>("width");
    // A quarter view at 1366 x 768 (413 px), narrower still, a half view, and one of 1920 x 1080.
    for (const QString &figure : {u"heatmap"_s, u"rope-rotation"_s, u"compose-compare"_s})
        for (const int width : {300, 413, 683, 960})
            QTest::newRow(qPrintable(u"%1 %2"_s.arg(figure).arg(width))) << figure << width;
}

// The screen's note, how many cells a pixel of the heatmap averages, is read in the bar: in a
// shorter form where the whole does not hold, in a row of its own where none does beside the
// controls, never elided. At 1366 x 768 the heatmap's quarter view showed a lone "…" (its text only
// in the tooltip).
void TestFigureOptionBar::theNoteReadsWholeInAnyView()
{
    QFETCH(QString, figure);
    QFETCH(int, width);
    FigureOptionBar bar(true);
    bar.resize(width, 40);
    bar.setFigure(*FigureRegistry::find(figure), FigureState(), Params());
    QVERIFY(WindowFixture::shown(bar));
    // 8,192 positions over 342 px and 4,096 columns over 400 px: 8192 / 342 = 23.95, 4096 / 400 = 10.24.
    const QString note = FigureText::cellsPerPixelText(Block {0, 8192, 0, 4096}, 342, 400);
    bar.setNote(note);
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    QCOMPARE(bar.note(), u"each pixel averages ~24 positions and ~10 columns"_s);
    const auto *label = bar.findChild<QLabel *>(u"screenNote"_s);
    QVERIFY(label && label->isVisibleTo(&bar));
    QCOMPARE(label->toolTip(), bar.note());
    const QString shown = label->text();
    QVERIFY2(!shown.contains(u'…') && shown.contains(u"~24"_s) && shown.contains(u"~10"_s),
             qPrintable(u"the note reads '%1' in %2 px"_s.arg(shown).arg(label->width())));
    QVERIFY2(label->fontMetrics().horizontalAdvance(shown) <= label->width(),
             qPrintable(u"'%1' needs %2 px, has %3"_s.arg(shown)
                            .arg(label->fontMetrics().horizontalAdvance(shown))
                            .arg(label->width())));
    // The longest form that holds where it is: the whole wherever the whole holds.
    const QStringList forms = note.split(FigureText::kLengthVariants);
    const auto holds = std::find_if(forms.begin(), forms.end(), [&](const QString &form) {
        return label->fontMetrics().horizontalAdvance(form) <= label->width();
    });
    QVERIFY(holds != forms.end());
    QCOMPARE(shown, *holds);
    const int right = label->mapTo(&bar, QPoint(label->width() - 1, 0)).x();
    QVERIFY(right <= bar.width() - 1);

    // A count of one is left out of the shorter form: 1,024 positions over 394 px (2.6) and 512
    // columns over 512 px (1) read "~2.6 positions a pixel", never "× 1 column".
    bar.setNote(FigureText::cellsPerPixelText(Block {0, 1024, 0, 512}, 394, 512));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    QCOMPARE(bar.note(), u"each pixel averages ~2.6 positions and 1 column"_s);
    QVERIFY2(label->text() == bar.note() || label->text() == u"~2.6 positions a pixel"_s, qPrintable(label->text()));
    QVERIFY(label->fontMetrics().horizontalAdvance(label->text()) <= label->width());
}

POSENC_TEST_MAIN(TestFigureOptionBar)
} // namespace tst_figureoptionbar
#include "tst_figureoptionbar.moc"
