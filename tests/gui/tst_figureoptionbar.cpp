// A view's option bar (FigureOptionBar): a text option's field shows its placeholder, the name and
// default an empty field stands for, whole; in a quarter view of the smallest screen the figure
// chooser still names its figure whole.
#include "gui/FigureOptionBar.h"

#include "core/Params.h"
#include "render/FigureRegistry.h"
#include "render/data/FigureModel.h"
#include "render/data/FigureState.h"

#include "support/WindowFixture.h"

#include <QComboBox>
#include <QLineEdit>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTest>

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

QTEST_MAIN(TestFigureOptionBar)
#include "tst_figureoptionbar.moc"
