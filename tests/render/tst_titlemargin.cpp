// A figure's title keeps half a line's height clear of each edge of the page (FigureFit's rows):
// one a little narrower than the page, which ran from edge to edge of relative-position's 14-pt
// slide with Whisper ("Similarity S[p, q] = PE[p] · PE[q]  ·  256 positions, d = 1,280  ·  nearly a
// function of q − p"), is wrapped at its separators; one with that room is left whole.
#include "render/FigureFit.h"
#include "render/PinnedFont.h"
#include "render/PlotStyle.h"
#include "support/TestMain.h"

#include <QTest>

namespace tst_titlemargin {
using namespace Qt::StringLiterals;
using namespace posenc;

class TestTitleMargin : public QObject
{
    Q_OBJECT

private slots:
    void aTitleKeepsClearOfThePagesEdges_data();
    void aTitleKeepsClearOfThePagesEdges();
};

void TestTitleMargin::aTitleKeepsClearOfThePagesEdges_data()
{
    QTest::addColumn<double>("shortBy"); // how much narrower than the page the title is, in lines' heights
    QTest::addColumn<bool>("wrapped");
    QTest::newRow("0.6 of a line short of the page: wrapped") << 0.6 << true;
    QTest::newRow("0.9 of a line short: wrapped") << 0.9 << true;
    QTest::newRow("two lines short: whole") << 2.0 << false;
}

void TestTitleMargin::aTitleKeepsClearOfThePagesEdges()
{
    QFETCH(double, shortBy);
    QFETCH(bool, wrapped);
    QCustomPlot plot;
    plot.setFont(QFont(PinnedFont::family(), 14));
    QCPTextElement *title = PlotStyle::resetWithTitle(&plot);
    plot.plotLayout()->addElement(1, 0, new QCPAxisRect(&plot));
    const QFontMetricsF metrics(title->font());
    const QString parts[] = {u"Similarity S[p, q] = PE[p] · PE[q]"_s, u"256 positions, d = 1,280"_s,
                             u"nearly a function of q − p"_s};
    const QString text = parts[0] + u"  ·  "_s + parts[1] + u"  ·  "_s + parts[2];
    const double advance = metrics.horizontalAdvance(text);
    const int width = static_cast<int>(std::ceil(advance + shortBy * metrics.height()));
    plot.setViewport(QRect(0, 0, width, 500));
    title->setText(text);
    FigureFit::fitTexts(&plot);
    const QStringList lines = title->text().split(u'\n');
    QCOMPARE(lines.size() > 1, wrapped);
    for (const QString &line : lines)
        QVERIFY2(metrics.horizontalAdvance(line) <= width - metrics.height(),
                 qPrintable(u"%1 of %2 units: %3"_s.arg(metrics.horizontalAdvance(line)).arg(width).arg(line)));
}

POSENC_TEST_MAIN(TestTitleMargin)
} // namespace tst_titlemargin
#include "tst_titlemargin.moc"
