__version__ = '2.9.0.post6'
git_version = '2ab735441febd1d0c12886adfd55e01a4e9ccc9c'
