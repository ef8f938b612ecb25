// A view's option bar (FigureOptionBar): a text option's field shows its placeholder, the name and
// default an empty field stands for, whole.
#include "gui/FigureOptionBar.h"

#include "core/Params.h"
#include "render/FigureRegistry.h"
#include "render/data/FigureModel.h"
#include "render/data/FigureState.h"

#include "support/WindowFixture.h"

#include <QLineEdit>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace posenc;

class TestFigureOptionBar : public QObject
{
    Q_OBJECT

private slots:
    void textFieldsShowTheirPlaceholderWhole_data();
    void textFieldsShowTheirPlaceholderWhole();
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

QTEST_MAIN(TestFigureOptionBar)
#include "tst_figureoptionbar.moc"
