#include "ControlPanel.h"

#include "ui_ControlPanel.h"

#include "core/ParamText.h"

#include <QRandomGenerator>

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

} // namespace

ControlPanel::ControlPanel(QWidget *parent)
    : QWidget(parent)
    , m_ui(std::make_unique<Ui::ControlPanel>())
{
    m_ui->setupUi(this);
    m_errorLabels = {
        {u"d-model"_s, m_ui->dModelError}, {u"max-len"_s, m_ui->maxLenError},    {u"base"_s, m_ui->baseError},
        {u"scale"_s, m_ui->scaleError},    {u"init"_s, m_ui->initError},         {u"pe-dims"_s, m_ui->peDimsError},
        {u"compose"_s, m_ui->peDimsError}, {u"dropout"_s, m_ui->dropoutError},   {u"special"_s, m_ui->specialError},
        {u"seq-len"_s, m_ui->seqLenError}, {u"embeddings"_s, m_ui->maxLenError},
    };
    setParams(Params {});
    connectControls();
}

ControlPanel::~ControlPanel() = default;

void ControlPanel::connectControls()
{
    Ui::ControlPanel &ui = *m_ui;
    const auto read = [this] { readControls(); };
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
    connect(ui.trainingRadio, &QRadioButton::toggled, this, read);
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
    ui.trainingRadio->setChecked(params.training);
    ui.evaluationRadio->setChecked(!params.training);
    blockers.clear();
    m_params = params;
    showErrors({});
    updateEnabled();
    m_updating = false;
}

void ControlPanel::applyParams(const Params &params)
{
    const bool changed = !(params == m_params);
    setParams(params);
    if (changed)
        emit paramsChanged(m_params);
}

void ControlPanel::readControls()
{
    if (m_updating)
        return;
    updateEnabled();
    const Ui::ControlPanel &ui = *m_ui;
    Params next = m_params; // keeps what no control shows: a loaded matrix, the memory budget
    const int scale = ui.scaleCombo->currentIndex();
    const int init = ui.initCombo->currentIndex();
    // A loaded matrix fixes d_model: its columns, plus the PE's in a concatenation.
    std::int64_t dModel = ui.dModelSpin->value();
    if (next.embeddings) {
        const std::int64_t cols = next.embeddings->values.cols();
        dModel = ui.composeCombo->currentIndex() == 1 && ui.peDimsSpin->value() >= 0 ? cols + ui.peDimsSpin->value()
            : ui.composeCombo->currentIndex() == 1                                   ? 2 * cols
                                                                                     : cols;
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
        {u"eval"_s, ui.evaluationRadio->isChecked() ? u"true"_s : u"false"_s},
    };
    QList<ParamError> errors;
    for (const auto &[key, text] : texts) {
        if (auto error = ParamText::set(next, key, text))
            errors.append(*error);
    }
    if (errors.isEmpty())
        errors = next.validate();
    showErrors(errors);
    if (!errors.isEmpty() || next == m_params)
        return;
    m_params = next;
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

void ControlPanel::updateEnabled()
{
    Ui::ControlPanel &ui = *m_ui;
    ui.scaleEdit->setEnabled(ui.scaleCombo->currentIndex() == 2);
    ui.sigmaEdit->setEnabled(ui.initCombo->currentIndex() == 2);
    ui.peDimsSpin->setEnabled(ui.composeCombo->currentIndex() == 1);
    const bool loaded = m_params.embeddings != nullptr;
    for (QWidget *w : {static_cast<QWidget *>(ui.dModelSpin), static_cast<QWidget *>(ui.dModelSlider)}) {
        w->setEnabled(!loaded);
        w->setToolTip(loaded ? tr("d_model comes from the loaded matrix (%1 columns); File > Use random "
                                  "embeddings frees it")
                                   .arg(m_params.embeddings->values.cols())
                             : QString());
    }
    for (QWidget *w : {static_cast<QWidget *>(ui.initCombo), static_cast<QWidget *>(ui.sigmaEdit)}) {
        if (loaded)
            w->setEnabled(false);
    }
}

} // namespace posenc
