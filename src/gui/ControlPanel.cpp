#include "ControlPanel.h"

#include "ui_ControlPanel.h"

#include "ParamLabels.h"
#include "ParamTips.h"

#include "core/MatrixColumns.h"
#include "core/ParamText.h"
#include "core/ParamUse.h"

#include <QCoreApplication>
#include <QRandomGenerator>
#include <QStandardItemModel>

#include <algorithm>

#include <cmath>

using namespace Qt::StringLiterals;

namespace posenc {

namespace {

// max_len slider: position v stands for L = 2^(v / 10), 1 to 2^24.
constexpr double kLogSteps = 10.0;

int maxLenToSlider(std::int64_t length)
{
    return static_cast<int>(std::lround(kLogSteps * std::log2(static_cast<double>(std::max<std::int64_t>(length, 1)))));
}

std::int64_t sliderToMaxLen(int value)
{
    return std::llround(std::exp2(value / kLogSteps));
}

const QStringList kScaleTexts = {u"1"_s, u"sqrt"_s};
const QStringList kInitTexts = {u"normal"_s, u"scaled-normal"_s};

QString presetTooltip(const Preset &preset)
{
    QString text = u"<b>%1</b><br>%2"_s.arg(preset.title.toHtmlEscaped(), preset.source.toHtmlEscaped());
    if (!preset.note.isEmpty())
        text += u"<br><i>%1</i>"_s.arg(preset.note.toHtmlEscaped());
    QStringList values;
    for (auto it = preset.params.cbegin(); it != preset.params.cend(); ++it)
        values << u"%1 %2"_s.arg(ParamLabels::label(it.key()), it.value()).toHtmlEscaped();
    return text + u"<br>"_s
        + QCoreApplication::translate("ControlPanel", "Sets %1; the rest stays.").arg(values.join(u", "_s));
}

} // namespace

ControlPanel::ControlPanel(QWidget *parent, const QString &presetFolder)
    : QWidget(parent)
    , m_ui(std::make_unique<Ui::ControlPanel>())
    , m_presets(Presets::load(presetFolder).presets)
{
    m_ui->setupUi(this);
    Ui::ControlPanel &ui = *m_ui;
    m_errorLabels = {
        {u"d-model"_s, ui.dModelError}, {u"max-len"_s, ui.maxLenError},    {u"base"_s, ui.baseError},
        {u"scale"_s, ui.scaleError},    {u"init"_s, ui.initError},         {u"pe-dims"_s, ui.peDimsError},
        {u"compose"_s, ui.peDimsError}, {u"dropout"_s, ui.dropoutError},   {u"special"_s, ui.specialError},
        {u"seq-len"_s, ui.seqLenError}, {u"embeddings"_s, ui.maxLenError},
    };
    m_controlsOf = {
        {u"d-model"_s, {ui.dModelLabel, ui.dModelSpin, ui.dModelSlider}},
        {u"max-len"_s, {ui.maxLenLabel, ui.maxLenSpin, ui.maxLenSlider}},
        {u"base"_s, {ui.baseLabel, ui.baseEdit}},
        {u"layout"_s, {ui.layoutLabel, ui.layoutCombo}},
        {u"angles"_s, {ui.anglesLabel, ui.anglesCombo}},
        {u"scale"_s, {ui.scaleLabel, ui.scaleCombo}},
        {QString::fromUtf16(ParamUse::kCustomScale), {ui.scaleEdit}},
        {u"init"_s, {ui.initLabel, ui.initCombo}},
        {QString::fromUtf16(ParamUse::kCustomSigma), {ui.sigmaEdit}},
        {u"compose"_s, {ui.composeLabel, ui.composeCombo}},
        {u"pe-dims"_s, {ui.peDimsLabel, ui.peDimsSpin}},
        {u"dropout"_s, {ui.dropoutLabel, ui.dropoutSpin, ui.dropoutSlider}},
        {u"dropout-mode"_s, {ui.dropoutModeLabel, ui.dropoutModeCombo}},
        {u"special"_s, {ui.specialLabel, ui.specialEdit}},
        {u"seq-len"_s, {ui.seqLenLabel, ui.seqLenSpin}},
        {u"seed"_s, {ui.seedLabel, ui.seedSpin, ui.newSeedButton}},
        {u"eval"_s, {ui.evalLabel, ui.evalCheck}},
    };
    ui.presetError->setVisible(false);
    fillPresets();
    setParams(Params {});
    connectControls();
}

ControlPanel::~ControlPanel() = default;

void ControlPanel::fillPresets()
{
    QComboBox *combo = m_ui->presetCombo;
    // "custom" is what the chooser reads when no preset has all the parameters; not a choice.
    combo->addItem(tr("custom"));
    combo->setItemData(0, tr("The parameters as the controls set them: no preset has all of them."), Qt::ToolTipRole);
    if (auto *model = qobject_cast<QStandardItemModel *>(combo->model()))
        model->item(0)->setEnabled(false);
    for (const Preset &preset : std::as_const(m_presets)) {
        combo->addItem(preset.title);
        combo->setItemData(combo->count() - 1, presetTooltip(preset), Qt::ToolTipRole);
    }
    m_ui->presetLabel->setToolTip(tr("Parameter values from a published source: choosing one sets every parameter "
                                     "it names and leaves the others as they are."));
}

void ControlPanel::connectControls()
{
    Ui::ControlPanel &ui = *m_ui;
    const auto read = [this] { readControls(); };
    connect(ui.presetCombo, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index > 0)
            choosePreset(index - 1);
        else
            showPreset(m_params, true);
    });
    // Sliders drive their spin boxes; the spin boxes are what is read.
    connect(ui.dModelSlider, &QSlider::valueChanged, ui.dModelSpin, &QSpinBox::setValue);
    connect(ui.dModelSpin, &QSpinBox::valueChanged, this, [this, read](int value) {
        const QSignalBlocker block(m_ui->dModelSlider);
        m_ui->dModelSlider->setValue(value);
        read();
    });
    connect(ui.maxLenSlider, &QSlider::valueChanged, this,
            [this](int value) { m_ui->maxLenSpin->setValue(static_cast<int>(sliderToMaxLen(value))); });
    connect(ui.maxLenSpin, &QSpinBox::valueChanged, this, [this, read](int value) {
        const QSignalBlocker block(m_ui->maxLenSlider);
        m_ui->maxLenSlider->setValue(maxLenToSlider(value));
        read();
    });
    connect(ui.dropoutSlider, &QSlider::valueChanged, this,
            [this](int value) { m_ui->dropoutSpin->setValue(value / 1000.0); });
    connect(ui.dropoutSpin, &QDoubleSpinBox::valueChanged, this, [this, read](double value) {
        const QSignalBlocker block(m_ui->dropoutSlider);
        m_ui->dropoutSlider->setValue(static_cast<int>(std::lround(value * 1000.0)));
        read();
    });
    for (QLineEdit *edit : {ui.baseEdit, ui.scaleEdit, ui.sigmaEdit, ui.specialEdit})
        connect(edit, &QLineEdit::editingFinished, this, read);
    for (QComboBox *combo :
         {ui.layoutCombo, ui.anglesCombo, ui.scaleCombo, ui.initCombo, ui.composeCombo, ui.dropoutModeCombo})
        connect(combo, &QComboBox::currentIndexChanged, this, read);
    for (QSpinBox *spin : {ui.peDimsSpin, ui.seqLenSpin, ui.seedSpin})
        connect(spin, &QSpinBox::valueChanged, this, read);
    connect(ui.evalCheck, &QCheckBox::toggled, this, read);
    connect(ui.newSeedButton, &QPushButton::clicked, this, [this] {
        m_ui->seedSpin->setValue(static_cast<int>(QRandomGenerator::global()->bounded(m_ui->seedSpin->maximum())));
    });
}

void ControlPanel::setParams(const Params &params)
{
    m_updating = true;
    Ui::ControlPanel &ui = *m_ui;
    const QList<QWidget *> widgets = findChildren<QWidget *>();
    std::vector<std::unique_ptr<QSignalBlocker>> blockers;
    for (QWidget *w : widgets)
        blockers.push_back(std::make_unique<QSignalBlocker>(w));
    ui.dModelSpin->setValue(static_cast<int>(params.dModel));
    ui.dModelSlider->setValue(static_cast<int>(params.dModel));
    ui.maxLenSpin->setValue(static_cast<int>(params.maxLen));
    ui.maxLenSlider->setValue(maxLenToSlider(params.maxLen));
    ui.baseEdit->setText(ParamText::get(params, u"base"_s));
    ui.layoutCombo->setCurrentIndex(params.layout == Layout::Split ? 1 : 0);
    ui.anglesCombo->setCurrentIndex(params.angles == Angles::Float32 ? 1 : 0);
    ui.scaleCombo->setCurrentIndex(static_cast<int>(params.scaleKind));
    ui.scaleEdit->setText(ParamText::get(params, u"scale"_s) == u"sqrt"_s ? u"1"_s
                                                                          : ParamText::get(params, u"scale"_s));
    ui.initCombo->setCurrentIndex(static_cast<int>(params.init));
    ui.sigmaEdit->setText(params.init == InitKind::Custom ? ParamText::get(params, u"init"_s) : u"1"_s);
    ui.composeCombo->setCurrentIndex(params.compose == Compose::Concat ? 1 : 0);
    ui.peDimsSpin->setValue(params.peDims ? static_cast<int>(*params.peDims) : -1);
    ui.dropoutSpin->setValue(params.dropout);
    ui.dropoutSlider->setValue(static_cast<int>(std::lround(params.dropout * 1000.0)));
    ui.dropoutModeCombo->setCurrentIndex(static_cast<int>(params.dropoutMode));
    ui.specialEdit->setText(ParamText::get(params, u"special"_s));
    ui.seqLenSpin->setValue(params.seqLen ? static_cast<int>(*params.seqLen) : 0);
    ui.seedSpin->setValue(static_cast<int>(std::min<std::uint64_t>(params.seed, 2147483647u)));
    ui.evalCheck->setChecked(!params.training);
    blockers.clear();
    m_params = params;
    showErrors({});
    showUse(params, {});
    showPreset(params, false);
    m_updating = false;
}

void ControlPanel::applyParams(const Params &params)
{
    const bool changed = !(params == m_params);
    setParams(params);
    if (changed)
        emit paramsChanged(m_params);
}

void ControlPanel::commitPendingEdits()
{
    Ui::ControlPanel &ui = *m_ui;
    // A spin box reads its text on Return or leaving it (no keyboard tracking): its valueChanged
    // reads the controls when the text differs from its value.
    for (QAbstractSpinBox *spin : findChildren<QAbstractSpinBox *>())
        spin->interpretText();
    for (QLineEdit *edit : {ui.baseEdit, ui.scaleEdit, ui.sigmaEdit, ui.specialEdit}) {
        if (edit->isModified()) {
            readControls();
            return;
        }
    }
}

bool ControlPanel::choosePreset(int index)
{
    if (index < 0 || index >= m_presets.size())
        return false;
    const Preset &preset = m_presets[index];
    auto applied = preset.applyTo(m_params);
    if (const auto *errors = std::get_if<QList<ParamError>>(&applied)) {
        QStringList reasons;
        for (const ParamError &e : *errors)
            reasons << ParamLabels::text(e);
        m_ui->presetError->setText(tr("%1 was not applied: %2").arg(preset.title, reasons.join(u"; "_s)));
        m_ui->presetError->setVisible(true);
        showPreset(m_params, true);
        return false;
    }
    m_ui->presetError->setVisible(false);
    m_activePreset = static_cast<int>(index);
    applyParams(std::get<Params>(applied));
    return true;
}

void ControlPanel::readControls()
{
    if (m_updating)
        return;
    const Ui::ControlPanel &ui = *m_ui;
    Params next = m_params; // keeps what no control shows: a loaded matrix, the memory budget
    const int scale = ui.scaleCombo->currentIndex();
    const int init = ui.initCombo->currentIndex();
    // A loaded matrix fixes d_model, in the composition the controls say.
    std::int64_t dModel = ui.dModelSpin->value();
    if (next.embeddings) {
        Params composed;
        composed.compose = ui.composeCombo->currentIndex() == 1 ? Compose::Concat : Compose::Sum;
        if (ui.peDimsSpin->value() >= 0)
            composed.peDims = ui.peDimsSpin->value();
        dModel = dModelOfMatrix(composed, next.embeddings->values.cols());
    }
    const QList<std::pair<QString, QString>> texts = {
        {u"d-model"_s, QString::number(dModel)},
        {u"max-len"_s, QString::number(ui.maxLenSpin->value())},
        {u"base"_s, ui.baseEdit->text()},
        {u"layout"_s, ui.layoutCombo->currentIndex() == 1 ? u"split"_s : u"interleaved"_s},
        {u"angles"_s, ui.anglesCombo->currentIndex() == 1 ? u"float32"_s : u"exact"_s},
        {u"scale"_s, scale < 2 ? kScaleTexts[scale] : ui.scaleEdit->text()},
        {u"init"_s, init < 2 ? kInitTexts[init] : ui.sigmaEdit->text()},
        {u"compose"_s, ui.composeCombo->currentIndex() == 1 ? u"concat"_s : u"sum"_s},
        {u"pe-dims"_s, ui.peDimsSpin->value() < 0 ? u"auto"_s : QString::number(ui.peDimsSpin->value())},
        {u"dropout"_s, QString::number(ui.dropoutSpin->value(), 'g', 17)},
        {u"dropout-mode"_s, ui.dropoutModeCombo->currentText()},
        {u"special"_s, ui.specialEdit->text().trimmed().isEmpty() ? u"none"_s : ui.specialEdit->text()},
        {u"seq-len"_s, ui.seqLenSpin->value() == 0 ? u"auto"_s : QString::number(ui.seqLenSpin->value())},
        {u"seed"_s, QString::number(ui.seedSpin->value())},
        {u"eval"_s, ui.evalCheck->isChecked() ? u"true"_s : u"false"_s},
    };
    QList<ParamError> errors;
    for (const auto &[key, text] : texts) {
        if (auto error = ParamText::set(next, key, text))
            errors.append(*error);
    }
    // A custom scale of 1 reads back as the scale 1; the chooser says custom, so its field stays
    // enabled for the number about to be typed.
    if (scale == 2 && next.scaleKind == ScaleKind::One)
        next.scaleKind = ScaleKind::Custom;
    if (errors.isEmpty())
        errors = next.validate();
    showErrors(errors);
    // What the controls say decides what they enable; while they say something invalid, the
    // last valid parameters do.
    showUse(errors.isEmpty() ? next : m_params, errors);
    if (!errors.isEmpty() || next == m_params)
        return;
    m_params = next;
    m_ui->presetError->setVisible(false);
    showPreset(m_params, true);
    emit paramsChanged(m_params);
}

QLabel *ControlPanel::errorLabelFor(const QString &key) const
{
    return m_errorLabels.value(key, m_ui->generalError);
}

void ControlPanel::showErrors(const QList<ParamError> &errors)
{
    QHash<QLabel *, QStringList> messages;
    for (const ParamError &e : errors)
        messages[errorLabelFor(e.key)].append(e.sentence());
    QList<QLabel *> labels = m_errorLabels.values();
    labels.append(m_ui->generalError);
    for (QLabel *label : labels) {
        const QStringList text = messages.value(label);
        label->setText(text.join(u"\n"_s));
        label->setVisible(!text.isEmpty());
    }
    m_hasErrors = !errors.isEmpty();
}

QString ControlPanel::errorText(const QString &key) const
{
    const QLabel *label = errorLabelFor(key);
    return label->isVisibleTo(this) ? label->text() : QString();
}

void ControlPanel::showUse(const Params &params, const QList<ParamError> &errors)
{
    for (auto it = m_controlsOf.cbegin(); it != m_controlsOf.cend(); ++it) {
        const QString &key = it.key();
        // A control whose value is refused stays enabled, so that it can be put right.
        const bool refused = std::any_of(errors.begin(), errors.end(), [&](const ParamError &e) {
            return e.key == key || (key == QString::fromUtf16(ParamUse::kCustomScale) && e.key == u"scale"_s)
                || (key == QString::fromUtf16(ParamUse::kCustomSigma) && e.key == u"init"_s);
        });
        const bool enabled = refused || !ParamUse::idle(params, key);
        const QString tip = ParamTips::tooltip(key, params);
        for (QWidget *w : it.value()) {
            w->setEnabled(enabled);
            w->setToolTip(tip);
        }
    }
}

void ControlPanel::showPreset(const Params &params, bool editedByHand)
{
    const bool stillActive = m_activePreset >= 0 && m_presets[m_activePreset].matches(params);
    if (!stillActive) {
        m_activePreset = -1;
        for (qsizetype i = 0; !editedByHand && i < m_presets.size() && m_activePreset < 0; ++i) {
            if (m_presets[i].matches(params))
                m_activePreset = static_cast<int>(i);
        }
    }
    const QSignalBlocker block(m_ui->presetCombo);
    m_ui->presetCombo->setCurrentIndex(m_activePreset + 1);
    m_ui->presetCombo->setToolTip(m_ui->presetCombo->itemData(m_activePreset + 1, Qt::ToolTipRole).toString());
    QLabel *source = m_ui->presetSource;
    source->setText(m_activePreset >= 0 ? m_presets[m_activePreset].cite : QString());
    source->setToolTip(m_ui->presetCombo->toolTip());
    source->setVisible(m_activePreset >= 0);
}

} // namespace posenc
