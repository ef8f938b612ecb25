#include "ArrayInput.h"

#include "io/BufferRows.h"

#include <pybind11/numpy.h>

#include <dlpack/dlpack.h>

#include <bit>
#include <string>

using namespace Qt::StringLiterals;
namespace py = pybind11;

namespace posenc::ArrayInput {

namespace {

// A Python object released with the GIL held, whichever thread drops the last reference.
std::shared_ptr<const void> keepAlive(py::handle object)
{
    object.inc_ref();
    return std::shared_ptr<const void>(object.ptr(), [](const void *held) {
        const py::gil_scoped_acquire gil;
        Py_DECREF(static_cast<PyObject *>(const_cast<void *>(held)));
    });
}

ReadError refuse(const QString &name, const QString &reason)
{
    return ReadError {name, reason, ReadError::Kind::Choice};
}

constexpr auto kTypes = "float16, bfloat16, float32, float64, integers or bool";

ReadResult<std::shared_ptr<const TableRows>> numpyRows(const py::array &array, const QString &name)
{
    const py::dtype dtype = array.dtype();
    const char kind = dtype.kind();
    const int bytes = int(dtype.itemsize());
    const char order = dtype.attr("byteorder").cast<std::string>().at(0);
    BufferRows::ArrayView view;
    view.element.bytes = bytes;
    view.element.bigEndian = order == '>' || (order == '=' && std::endian::native == std::endian::big);
    if (kind == 'f' && (bytes == 2 || bytes == 4 || bytes == 8)) {
        view.element.kind = ElementType::Kind::Float;
        view.stored = bytes == 8 ? StoredType::Float64 : bytes == 4 ? StoredType::Float32 : StoredType::Float16;
    } else if ((kind == 'i' || kind == 'u') && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8)) {
        view.element.kind = kind == 'i' ? ElementType::Kind::Signed : ElementType::Kind::Unsigned;
        view.stored = StoredType::Integer;
    } else if (kind == 'b' && bytes == 1) {
        view.element.kind = ElementType::Kind::Bool;
        view.stored = StoredType::Integer;
    } else {
        return refuse(name,
                      u"the array has dtype %1, which is not a table of numbers (%2)"_s.arg(
                          QString::fromStdString(dtype.attr("name").cast<std::string>()), QLatin1StringView(kTypes)));
    }
    view.data = static_cast<const char *>(array.data());
    for (py::ssize_t k = 0; k < array.ndim(); ++k) {
        view.shape.push_back(array.shape(k));
        view.strides.push_back(array.strides(k));
    }
    return BufferRows::open(view, name, keepAlive(array));
}

ReadResult<std::shared_ptr<const TableRows>> dlpackRows(py::handle object, const QString &name)
{
    py::object capsule = object.attr("__dlpack__")();
    auto *managed = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
    if (!managed)
        throw py::error_already_set();
    // Taken: the capsule no longer deletes it; the rows' owner does.
    PyCapsule_SetName(capsule.ptr(), "used_dltensor");
    const std::shared_ptr<const void> owner(managed, [](const void *held) {
        auto *tensor = static_cast<DLManagedTensor *>(const_cast<void *>(held));
        if (tensor->deleter) {
            const py::gil_scoped_acquire gil;
            tensor->deleter(tensor);
        }
    });
    const DLTensor &t = managed->dl_tensor;
    if (t.device.device_type != kDLCPU && t.device.device_type != kDLCUDAHost)
        return refuse(name,
                      u"the tensor is on a device of DLPack type %1; posenc reads tensors in the CPU's memory "
                      "(give tensor.cpu())"_s.arg(int(t.device.device_type)));
    BufferRows::ArrayView view;
    const int bits = t.dtype.bits;
    view.element.bytes = bits / 8;
    const bool wholeBytes = t.dtype.lanes == 1 && bits % 8 == 0;
    if (wholeBytes && t.dtype.code == kDLFloat && (bits == 16 || bits == 32 || bits == 64)) {
        view.element.kind = ElementType::Kind::Float;
        view.stored = bits == 64 ? StoredType::Float64 : bits == 32 ? StoredType::Float32 : StoredType::Float16;
    } else if (wholeBytes && t.dtype.code == kDLBfloat && bits == 16) {
        view.element.kind = ElementType::Kind::BFloat;
        view.stored = StoredType::BFloat16;
    } else if (wholeBytes && (t.dtype.code == kDLInt || t.dtype.code == kDLUInt)
               && (bits == 8 || bits == 16 || bits == 32 || bits == 64)) {
        view.element.kind = t.dtype.code == kDLInt ? ElementType::Kind::Signed : ElementType::Kind::Unsigned;
        view.stored = StoredType::Integer;
    } else {
        return refuse(name,
                      u"the tensor has DLPack dtype code %1 of %2 bits (%3 lanes), which is not a table of "
                      "numbers (%4)"_s.arg(int(t.dtype.code))
                          .arg(bits)
                          .arg(int(t.dtype.lanes))
                          .arg(QLatin1StringView(kTypes)));
    }
    view.element.bigEndian = std::endian::native == std::endian::big;
    view.data = static_cast<const char *>(t.data) + t.byte_offset;
    // Strides in elements, or none for a tensor packed row after row.
    std::int64_t packed = view.element.bytes;
    view.shape.assign(t.shape, t.shape + t.ndim);
    view.strides.resize(std::size_t(t.ndim));
    for (int k = t.ndim - 1; k >= 0; --k) {
        view.strides[std::size_t(k)] = t.strides ? t.strides[k] * view.element.bytes : packed;
        packed *= t.shape[k];
    }
    return BufferRows::open(view, name, owner);
}

} // namespace

ReadResult<std::shared_ptr<const TableRows>> rows(py::handle object, const QString &name)
{
    if (py::isinstance<py::array>(object))
        return numpyRows(py::reinterpret_borrow<py::array>(object), name);
    if (py::hasattr(object, "__dlpack__"))
        return dlpackRows(object, name);
    return refuse(name,
                  u"a %1 is neither a numpy array nor a DLPack tensor"_s.arg(
                      QString::fromStdString(py::str(py::type::of(object).attr("__name__")).cast<std::string>())));
}

} // namespace posenc::ArrayInput
