// A view's job (FigureJob): the panels each of its passes is computed and prepared for. A view whose
// preview takes a line more of text than its full result asks for the full data at the last full
// result's panels, but draws the preview in the panels as they are: a preview prepared for the
// guessed panels (a map's coverage made in the job) was made again on the GUI thread at every
// change (issue 62).
#include "gui/FigureJob.h"
#include "support/TestMain.h"

#include <QTest>

#include <atomic>
#include <memory>
#include <vector>

namespace tst_figurejob {
using namespace Qt::StringLiterals;
using namespace posenc;

namespace {

// A figure with a preview whose data is the panels it was computed for.
struct PanelsData final : FigureData
{
    QList<PanelExtent> panels;
};

class PreviewedModel final : public FigureModel
{
public:
    QString name() const override { return u"previewed"_s; }
    QString title() const override { return u"Previewed"_s; }
    QString summary() const override { return u"a figure with a preview"_s; }
    QList<Quantity> inputs(const FigureState &) const override { return {Quantity::Pe}; }
    bool hasPreview(const FigureRequest &) const override { return true; }

protected:
    FigureResult computeData(const FigureRequest &request, const std::atomic<bool> &) const override
    {
        auto data = std::make_shared<PanelsData>();
        data->panels = request.panels;
        return {data, std::nullopt};
    }
};

PanelExtent panel(int width, int height)
{
    PanelExtent extent;
    extent.size = QSize(width, height);
    extent.x = {0.0, 100.0};
    extent.y = {-1.0, 1.0};
    return extent;
}

// What a pass computed and prepared, in the order the job delivered them.
struct Pass
{
    Detail detail;
    QList<PanelExtent> computed;
    QList<PanelExtent> prepared;
};

std::vector<Pass> run(const QList<PanelExtent> &asked, const QList<PanelExtent> &previewPanels)
{
    static const PreviewedModel model;
    FigureRequest request;
    request.engine = std::make_shared<const Engine>(Params {});
    request.panels = asked;
    std::vector<Pass> passes;
    auto prepared = std::make_shared<std::vector<QList<PanelExtent>>>();
    const ComputeScheduler::Job job = FigureJob::make(
        model, request,
        [&passes, prepared](const FigureResult &result, Detail detail, const std::shared_ptr<const PreparedDrawing> &) {
            passes.push_back(
                {detail, static_cast<const PanelsData &>(*result.data).panels, prepared->at(passes.size())});
        },
        FigureJob::Start::WithPreview,
        [prepared](const FigureData &, const FigureRequest &pass) {
            prepared->push_back(pass.panels);
            return std::shared_ptr<const PreparedDrawing>();
        },
        // The input's rest is long over: the full data follows the preview at once.
        FigureJob::Clock::now() - std::chrono::seconds(1), previewPanels);
    const std::atomic<bool> cancel {false};
    job(cancel, [](const ComputeScheduler::Apply &apply) { apply(); });
    return passes;
}

} // namespace

class TestFigureJob : public QObject
{
    Q_OBJECT

private slots:
    void thePreviewIsMadeForThePanelsItIsDrawnIn();
    void withoutThemEveryPassIsMadeForTheRequestsPanels();
};

// The full data at the guessed panels (the last full result's, 353 high), the preview at those it
// is drawn in (311 high: its text took a line more), computed and prepared alike.
void TestFigureJob::thePreviewIsMadeForThePanelsItIsDrawnIn()
{
    const QList<PanelExtent> full {panel(130, 353), panel(164, 353)}, shown {panel(130, 311), panel(164, 311)};
    const std::vector<Pass> passes = run(full, shown);
    QCOMPARE(passes.size(), std::size_t(2));
    QCOMPARE(passes[0].detail, Detail::Preview);
    QCOMPARE(passes[0].computed, shown);
    QCOMPARE(passes[0].prepared, shown);
    QCOMPARE(passes[1].detail, Detail::Full);
    QCOMPARE(passes[1].computed, full);
    QCOMPARE(passes[1].prepared, full);
}

void TestFigureJob::withoutThemEveryPassIsMadeForTheRequestsPanels()
{
    const QList<PanelExtent> asked {panel(300, 200)};
    for (const QList<PanelExtent> &previewPanels :
         {QList<PanelExtent>(), QList<PanelExtent> {panel(1, 1), panel(2, 2)}}) {
        // None given, or not one for each panel: the request's.
        const std::vector<Pass> passes = run(asked, previewPanels);
        QCOMPARE(passes.size(), std::size_t(2));
        for (const Pass &pass : passes) {
            QCOMPARE(pass.computed, asked);
            QCOMPARE(pass.prepared, asked);
        }
    }
}

POSENC_TEST_MAIN(TestFigureJob)
} // namespace tst_figurejob
#include "tst_figurejob.moc"
