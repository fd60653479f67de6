"""The published GPU figures lesson 5 and deck 5 put into the cost model, each with a source a
student can open: its title, its address and its date.

Pages on GitHub are linked at the commit that holds the figure, so the number stays where the
link points. ``cost_model.PUBLISHED`` is this module's ``PUBLISHED``.
"""

import dataclasses


@dataclasses.dataclass(frozen=True)
class Figure:
    """A published number, its unit, what it measures, and the page it comes from."""

    value: float
    unit: str
    what: str
    title: str
    url: str
    date: str

    @property
    def source(self):
        """Title, date and address in one line."""
        return f"{self.title} ({self.date}), {self.url}"

    def __str__(self):
        return (f"{self.what}: {self.value:g} {self.unit}\n    source: {self.title} ({self.date})"
                f"\n    {self.url}")


_HPC = dict(title="ENCCS, Upscaling AI workflows: Distributed training in TensorFlow "
                  "(the HPC lesson), its Model.fit logs",
            url="https://github.com/ENCCS/upscalingAIworkflows/blob/"
                "da883dede3ff82d20888427791e7037b2ff3f93d/content/tf_mltgpus.rst",
            date="2022-04-24")
_RESNET = dict(title="sandeepkumar-skb/pytorch_experiments, Torchvision experiments: ResNet50 "
                     "training on a Tesla V100-SXM2",
               url="https://github.com/sandeepkumar-skb/pytorch_experiments/blob/"
                   "efd7d00760de8b9d679072c4fc61e1b56b3fd79c/torchvision_exp/README.md",
               date="2021-06-14")
_V100 = dict(title="NVIDIA V100 Tensor Core GPU datasheet, interconnect bandwidth",
             url="https://images.nvidia.com/content/technologies/volta/pdf/"
                 "volta-v100-datasheet-update-us-1165301-r5.pdf",
             date="revision r5, undated")
_A100 = dict(title="NVIDIA A100 Tensor Core GPU datasheet, interconnect bandwidth",
             url="https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
                 "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf",
             date="revision r4, 2021")
_NCCL = dict(title="li-plus/playground, cuda/bw.md: nccl-tests sendrecv_perf on 8 A100 NVLink GPUs",
             url="https://github.com/li-plus/playground/blob/"
                 "750c6363651d7584817286285396454dd557479d/cuda/bw.md",
             date="2023-12-05")

PUBLISHED = {  # the GPU figures lesson 5 and deck 5 read; each value is the source's own
    "cnn_1gpu_step": Figure(8, "ms", "course CNN, Model.fit on one GPU, time per step", **_HPC),
    "cnn_1gpu_batch": Figure(320, "examples", "course CNN on one GPU, batch", **_HPC),
    "cnn_validation": Figure(0.15, "of the data", "one-GPU run, validation_split", **_HPC),
    "fashion_mnist_train": Figure(
        60000, "examples", "Fashion-MNIST training set, the HPC runs' data",
        title="Xiao, Rasul, Vollgraf: Fashion-MNIST, a Novel Image Dataset for Benchmarking "
              "Machine Learning Algorithms", url="https://arxiv.org/abs/1708.07747",
        date="2017-08-25"),
    "cnn_5gpu_step": Figure(9, "ms", "course CNN, MirroredStrategy on 5 GPUs, time per step", **_HPC),
    "cnn_5gpu_batch": Figure(64, "examples per GPU", "course CNN on 5 GPUs, batch", **_HPC),
    "resnet50_step": Figure(342.37, "ms", "ResNet-50 step on one V100, FP32, NCHW", **_RESNET),
    "resnet50_batch": Figure(128, "examples", "ResNet-50 on one V100, batch", **_RESNET),
    "resnet50_params": Figure(25.6, "M parameters", "ResNet-50 size",
                              title="Keras Applications, table of available models",
                              url="https://keras.io/api/applications/",
                              date="living page, undated"),
    "resnet50_macs": Figure(3.8, "G multiply-adds per 224x224 image", "ResNet-50 work",
                            title="He, Zhang, Ren, Sun: Deep Residual Learning for Image "
                                  "Recognition, Table 1", url="https://arxiv.org/abs/1512.03385",
                            date="2015-12-10"),
    "pcie3": Figure(32, "GB/s", "PCIe Gen3 x16, both directions together", **_V100),
    "nvlink_v100": Figure(300, "GB/s", "NVLink on V100, both directions together", **_V100),
    "nvlink_a100": Figure(600, "GB/s", "NVLink on A100, both directions together", **_A100),
    "nccl_8xa100": Figure(195, "GB/s", "NCCL send/receive bandwidth per GPU and direction, "
                                       "8 A100 on NVLink, 1 GiB messages", **_NCCL),
    "ring_latency": Figure(10, "us", "latency of one ring step: an assumption, not a figure",
                           title="assumed; nccl-tests measures it with small messages (doc/"
                                 "PERFORMANCE.md, section Time)",
                           url="https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md",
                           date="living page"),
}
