#include "ModelConfigDialog.h"

#include "CheckMarks.h"
#include "ComputeScheduler.h"
#include "TableCheckDialog.h"

#include "check/CheckReport.h"
#include "core/ParamText.h"
#include "io/ModelConfigFile.h"

#include <QCloseEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// A label of the config's text (a value it quotes, its file's name), shown as it is: the automatic
// format would read "<b>" in a value as markup.
QLabel *plainLabel(const QString &text = QString(), QWidget *parent = nullptr)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    return label;
}

QString findingLine(const ConfigFinding &f)
{
    return u"%1 %2: %3"_s.arg(CheckMarks::severityMark(f.severity), f.id, f.message);
}

} // namespace

ModelConfigDialog::ModelConfigDialog(const QString &path, CurrentParams current, ApplyParams apply, QWidget *parent)
    : QDialog(parent)
    , m_path(path)
    , m_current(std::move(current))
    , m_apply(std::move(apply))
    , m_headline(plainLabel(QString(), this))
    , m_summary(plainLabel(QString(), this))
    , m_scroll(new QScrollArea(this))
    , m_layers(nullptr)
    , m_jobs(std::make_unique<ComputeScheduler>())
{
    setObjectName(u"modelConfigDialog"_s);
    setWindowTitle(tr("Model config: %1").arg(QFileInfo(path).fileName()));
    setWindowFlag(Qt::Window);
    setSizeGripEnabled(true);
    m_headline->setObjectName(u"configHeadline"_s);
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    m_headline->setFont(big);
    m_headline->setAccessibleName(tr("Model config"));
    m_summary->setObjectName(u"configSummary"_s);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAccessibleName(tr("Findings"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setAccessibleName(tr("Layer types"));
    auto *close = new QPushButton(tr("C&lose"), this);
    close->setObjectName(u"closeConfigButton"_s);
    connect(close, &QPushButton::clicked, this, &QDialog::close);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_headline);
    layout->addWidget(m_summary);
    layout->addWidget(m_scroll, 1);
    layout->addLayout(buttons);
    resize(1000, 760);
    start();
}

ModelConfigDialog::~ModelConfigDialog()
{
    m_jobs->cancelAll();
    m_jobs.reset();
}

void ModelConfigDialog::closeEvent(QCloseEvent *event)
{
    m_jobs->cancelAll();
    QDialog::closeEvent(event);
}

void ModelConfigDialog::start()
{
    m_checking = true;
    m_headline->setText(tr("Reading %1 …").arg(m_path));
    const QString path = m_path;
    m_jobs->submit([this, path](const std::atomic<bool> &cancel, const ComputeScheduler::Publish &publish) {
        TableCheckDialog::noteComputation();
        const ReadResult<QJsonObject> read = ModelConfigFile::read(path);
        if (cancel.load())
            return;
        if (!read) {
            const QString message = read.error().toString();
            publish([this, message] { showProblem(message); });
            return;
        }
        ConfigCheck check = ModelConfig::check(read.value());
        if (cancel.load())
            return;
        publish([this, check = std::move(check)]() mutable { showCheck(std::move(check)); });
    });
}

void ModelConfigDialog::showProblem(const QString &problem)
{
    m_checking = false;
    m_problem = problem;
    m_headline->setText(tr("Not checked: %1").arg(QFileInfo(m_path).fileName()));
    m_summary->setText(problem);
    emit checked();
}

QString ModelConfigDialog::summary() const
{
    return m_summary->text();
}

QPushButton *ModelConfigDialog::openButton(const QString &layerType) const
{
    for (const auto &[type, button] : m_buttons) {
        if (type == layerType)
            return button;
    }
    return nullptr;
}

QString ModelConfigDialog::layerText(const QString &layerType) const
{
    for (const auto &[type, text] : m_texts) {
        if (type == layerType)
            return text;
    }
    return {};
}

void ModelConfigDialog::showCheck(ConfigCheck check)
{
    m_checking = false;
    if (check.modelType.isEmpty()) {
        showProblem(tr("%1: not a model config: %2; model_type must be %3")
                        .arg(m_path, check.problems.value(0).got, check.problems.value(0).allowed));
        return;
    }
    if (!check.problems.isEmpty()) {
        QStringList lines;
        for (const ConfigProblem &p : check.problems)
            lines.append(p.toString());
        showProblem(tr("%1: values no model could mean:\n%2").arg(m_path, lines.join(u'\n')));
        return;
    }
    m_check = std::move(check);
    const ConfigCheck &c = *m_check;
    m_headline->setText(tr("%1: model_type %2%3")
                            .arg(QFileInfo(m_path).fileName(), c.modelType,
                                 c.textConfig.isEmpty() ? QString() : tr(" (its %1)").arg(c.textConfig)));
    int counts[3] = {0, 0, 0};
    for (const ConfigFinding &f : c.findings)
        ++counts[int(f.severity)];
    const auto count = [](qsizetype n, const QString &one, const QString &many) {
        return u"%1 %2"_s.arg(n).arg(n == 1 ? one : many);
    };
    m_summary->setText(tr("%1; findings: %2, %3, %4")
                           .arg(count(c.layers.size(), tr("layer type"), tr("layer types")),
                                count(counts[0], tr("error"), tr("errors")),
                                count(counts[1], tr("warning"), tr("warnings")),
                                count(counts[2], tr("note"), tr("notes"))));

    auto *content = new QWidget;
    m_layers = new QVBoxLayout(content);
    // The config's own findings first: they concern every layer type below.
    QList<ConfigFinding> general;
    for (const ConfigFinding &f : c.findings) {
        if (f.layerType.isEmpty())
            general.append(f);
    }
    m_hasGeneralFindings = !general.isEmpty();
    if (!general.isEmpty()) {
        auto *box = new QGroupBox(tr("The config as a whole"));
        box->setObjectName(u"configWhole"_s);
        box->setAccessibleName(tr("The config as a whole"));
        QFont bold = box->font();
        bold.setBold(true);
        box->setFont(bold);
        auto *layout = new QVBoxLayout(box);
        layout->addWidget(findingsPanel(general));
        m_layers->addWidget(box);
    }
    // Two layer types side by side, as Gemma's local and global layers are read together.
    auto *grid = new QGridLayout;
    const int columns = c.layers.size() > 1 ? 2 : 1;
    for (qsizetype i = 0; i < c.layers.size(); ++i)
        grid->addWidget(layerPanel(c.layers[i]), int(i) / columns, int(i) % columns);
    for (int col = 0; col < columns; ++col)
        grid->setColumnStretch(col, 1);
    m_layers->addLayout(grid);
    m_layers->addStretch(1);
    m_scroll->setWidget(content);
    emit checked();
}

QWidget *ModelConfigDialog::findingsPanel(const QList<ConfigFinding> &findings)
{
    auto *panel = new QWidget;
    QFont normal = panel->font();
    normal.setBold(false);
    panel->setFont(normal);
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);
    for (const ConfigFinding &f : findings) {
        auto *label = plainLabel(findingLine(f));
        label->setObjectName(u"finding-"_s + f.id);
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        QPalette palette = label->palette();
        palette.setColor(QPalette::WindowText, CheckMarks::severityColour(f.severity));
        label->setPalette(palette);
        label->setAccessibleName(u"%1 %2"_s.arg(ConfigFindings::severityWord(f.severity), f.id));
        label->setAccessibleDescription(f.message);
        layout->addWidget(label);
    }
    return panel;
}

QWidget *ModelConfigDialog::layerPanel(const ConfigLayer &layer)
{
    const auto entries = CheckReport::layerEntries(layer, false);
    QString layers;
    for (const auto &[key, value] : entries) {
        if (key == u"layers"_s)
            layers = value;
    }
    auto *box = new QGroupBox(layers.isEmpty() ? layer.layerType : tr("%1 — layers %2").arg(layer.layerType, layers));
    box->setObjectName(u"layer-"_s + layer.layerType);
    box->setAccessibleName(tr("Layer type %1").arg(layer.layerType));
    QFont bold = box->font();
    bold.setBold(true);
    box->setFont(bold);
    auto *layout = new QVBoxLayout(box);
    QStringList lines;

    // What to act on first: the findings, and the button.
    QList<ConfigFinding> findings;
    for (const ConfigFinding &f : m_check->findings) {
        if (f.layerType == layer.layerType)
            findings.append(f);
    }
    QWidget *findingsWidget = findings.isEmpty()
        ? plainLabel(m_hasGeneralFindings ? tr("No findings of these layers alone: see the config's own above.")
                                          : tr("No findings for these layers."))
        : findingsPanel(findings);
    layout->addWidget(findingsWidget);
    auto *button = new QPushButton(tr("Set parameters to %1").arg(QString(layer.layerType).replace(u'&', u"&&"_s)));
    button->setObjectName(u"open-"_s + layer.layerType);
    const bool computable = layer.described && layer.params.isValid();
    button->setEnabled(computable);
    if (!computable)
        button->setToolTip(tr("These layers cannot be computed: see their errors"));
    else
        button->setToolTip(tr("Set the window's parameters to these layers' %1 (one Undo step)")
                               .arg(ParamText::toString(layer.params.encoding)));
    const ConfigLayer copy = layer;
    connect(button, &QPushButton::clicked, this, [this, copy] { setParamsTo(copy); });
    auto *row = new QHBoxLayout;
    row->addWidget(button);
    row->addStretch(1);
    layout->addLayout(row);

    // The numbers, as the command line prints them; those the layer has no value for, named apart.
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setVerticalSpacing(2);
    QStringList none;
    for (const auto &[key, value] : entries) {
        if (key == u"layer_type"_s)
            continue;
        lines.append(u"%1: %2"_s.arg(key, value));
        if (key == u"layers"_s)
            continue; // in the title
        if (value == u"null"_s) {
            none.append(key);
            continue;
        }
        auto *field = plainLabel(value);
        field->setTextInteractionFlags(Qt::TextSelectableByMouse);
        field->setWordWrap(true);
        field->setAccessibleName(key);
        form->addRow(plainLabel(key + u':'), field);
    }
    layout->addLayout(form);
    if (!none.isEmpty()) {
        auto *label = plainLabel(tr("Not set for these layers (null): %1").arg(none.join(u", "_s)));
        label->setObjectName(u"nullKeys"_s);
        label->setWordWrap(true);
        label->setEnabled(false);
        layout->addWidget(label);
    }
    layout->addStretch(1);
    // The title alone is bold.
    QFont normal = bold;
    normal.setBold(false);
    for (QWidget *child : box->findChildren<QWidget *>())
        child->setFont(normal);
    for (const ConfigFinding &f : findings)
        lines.append(findingLine(f));
    m_buttons.append({layer.layerType, button});
    m_texts.append({layer.layerType, lines.join(u'\n')});
    return box;
}

void ModelConfigDialog::setParamsTo(const ConfigLayer &layer)
{
    if (!m_apply)
        return;
    const CheckReport::WindowParams opened = CheckReport::windowParams(layer);
    m_apply(CheckReport::referenceParams(m_current ? m_current() : Params(), opened.params));
}

} // namespace posenc
